import { insertText, type TextBuffer } from "./text-buffer.js";

/** A paste of more lines than this, or more characters than `PASTE_CHIP_CHARS`, becomes a chip. */
export const PASTE_CHIP_LINES = 10;
export const PASTE_CHIP_CHARS = 1000;

/** A large paste shown as `[pasted 120 lines]` in the input and expanded when it is sent. */
export interface PasteChip {
  label: string;
  content: string;
  /** An image chip (`[image shot.png]`): the image's path; its label is dropped from the text sent. */
  image?: string | undefined;
}

/** Whether one chunk of input is large enough to collapse into a chip. */
export function isLargePaste(text: string): boolean {
  return text.length > PASTE_CHIP_CHARS || text.split(/\r\n|\r|\n/).length > PASTE_CHIP_LINES;
}

/** Inserts a chip for `content` at the cursor; a second chip with the same label gets `#2`. */
export function insertChip(
  buffer: TextBuffer,
  chips: readonly PasteChip[],
  content: string,
): { buffer: TextBuffer; chips: PasteChip[] } {
  const clean = content.replace(/\r\n?/g, "\n");
  const lines = clean.replace(/\n$/, "").split("\n").length;
  const base = lines > 1 ? `pasted ${lines} lines` : `pasted ${clean.length} chars`;
  let label = `[${base}]`;
  for (let n = 2; chips.some((chip) => chip.label === label); n++) label = `[${base} #${n}]`;
  return { buffer: insertText(buffer, label), chips: [...chips, { label, content: clean }] };
}

/** Inserts `[image name]` for the image at `path` (a second one with the same name gets `#2`). */
export function insertImageChip(
  buffer: TextBuffer,
  chips: readonly PasteChip[],
  path: string,
): { buffer: TextBuffer; chips: PasteChip[] } {
  const name = path.split(/[\\/]/).at(-1) ?? path;
  let label = `[image ${name}]`;
  for (let n = 2; chips.some((chip) => chip.label === label); n++) label = `[image ${name} #${n}]`;
  const spaced = buffer.cursor > 0 && !/\s$/.test(buffer.text.slice(0, buffer.cursor)) ? ` ${label}` : label;
  return { buffer: insertText(buffer, `${spaced} `), chips: [...chips, { label, content: "", image: path }] };
}

/** The paths of the image chips whose labels are still in `text`, in the order they were attached. */
export function chipImages(text: string, chips: readonly PasteChip[]): string[] {
  return chips.flatMap((chip) => (chip.image !== undefined && text.includes(chip.label) ? [chip.image] : []));
}

/** The text with each chip's label replaced by the pasted content (labels the user removed stay removed). */
export function expandChips(text: string, chips: readonly PasteChip[]): string {
  let expanded = text;
  for (const chip of chips) {
    const index = expanded.indexOf(chip.label);
    if (index >= 0)
      expanded = expanded.slice(0, index) + chip.content + expanded.slice(index + chip.label.length);
  }
  return expanded;
}

/** Backspace right after a chip's label removes the whole chip. Undefined when the cursor is not there. */
export function deleteChipBefore(
  buffer: TextBuffer,
  chips: readonly PasteChip[],
): { buffer: TextBuffer; chips: PasteChip[] } | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  const chip = chips.find((candidate) => before.endsWith(candidate.label));
  if (!chip) return undefined;
  const start = buffer.cursor - chip.label.length;
  return {
    buffer: { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start },
    chips: chips.filter((candidate) => candidate !== chip),
  };
}
