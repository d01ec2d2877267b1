/** A unit over this many tokens is split into parts (Continue's and Roo Code's figure). */
export const MAX_CHUNK_TOKENS = 500;
/** The estimate of characters per token used for that budget (no tokenizer is loaded). */
export const CHARS_PER_TOKEN = 4;
/** Lines each part of a split unit repeats from the end of the part before it. */
export const SPLIT_OVERLAP_LINES = 10;
/** Lines per window for files without a grammar. */
export const WINDOW_LINES = 60;
/** Lines each window repeats from the window before it. */
export const WINDOW_OVERLAP_LINES = 5;
