import {
  type AnsiCode,
  ansiCodesToString,
  reduceAnsiCodes,
  type StyledChar,
  styledCharsFromTokens,
  styledCharsToString,
  tokenize,
} from "@alcalzone/ansi-tokenize";
import stringWidth from "string-width";

const CSI = "\x1b[";
/** Erases from the cursor to the end of its line. */
export const ERASE_LINE_END = `${CSI}K`;

/** Moves the cursor to column `column` (0-based) of its row: a carriage return for the first. */
export function toColumn(column: number): string {
  return column === 0 ? "\r" : `${CSI}${column + 1}G`;
}

/**
 * Characters whose width a terminal may see otherwise than `string-width` does, or that join with
 * their neighbours: combining marks, emoji and pictographs (one or two cells by terminal and font),
 * zero-width and variation selectors, and anything wider than a cell. A line holding one is
 * rewritten whole, from its first column.
 */
const UNCERTAIN_WIDTH = /\p{M}|\p{Extended_Pictographic}|[\u200b-\u200f\u2060]|\p{Variation_Selector}/u;

function isPlain(chars: readonly StyledChar[]): boolean {
  for (const char of chars) {
    if (char.fullWidth || (char.value.charCodeAt(0) >= 0x300 && UNCERTAIN_WIDTH.test(char.value)))
      return false;
    if (char.value.length > 1 && stringWidth(char.value) !== 1) return false;
  }
  return true;
}

function sameChar(a: StyledChar, b: StyledChar): boolean {
  if (a.value !== b.value || a.fullWidth !== b.fullWidth || a.styles.length !== b.styles.length) return false;
  return a.styles.every((style, index) => style.code === b.styles[index]?.code);
}

/** A line's styled characters and whether it is plain (see `isPlain`). */
interface StyledLine {
  chars: StyledChar[];
  plain: boolean;
}

/**
 * Lines already split into styled characters, by their text: a frame's changed line is the next
 * frame's `before`, so with a cache each line is tokenized once (a key's echo changes one line a
 * frame; tokenizing it twice a frame was most of writing the echo). Emptied at `MAX_CACHED_LINES`.
 */
export type StyledLineCache = Map<string, StyledLine>;
const MAX_CACHED_LINES = 500;

function styledLine(line: string, cache: StyledLineCache | undefined): StyledLine {
  const cached = cache?.get(line);
  if (cached) return cached;
  const chars = styledCharsFromTokens(tokenize(line));
  const styled = { chars, plain: isPlain(chars) };
  if (cache) {
    if (cache.size >= MAX_CACHED_LINES) cache.clear();
    cache.set(line, styled);
  }
  return styled;
}

const widthOf = (chars: readonly StyledChar[]) => stringWidth(chars.map((char) => char.value).join(""));

/**
 * What turns line `before` on the screen into `after` (both as ink renders a row: text and SGR
 * styles, no cursor moves), written with the cursor anywhere on that row: a move to the first cell
 * that differs and the cells from there to the last that differs, or, when the changed stretch
 * changes width, everything to the line's end and an erase of what is left over. Empty when the
 * two show the same. The cursor ends somewhere on the row.
 */
export function diffFrameLine(before: string, after: string, cache?: StyledLineCache): string {
  if (before === after) return "";
  const quick = diffAsText(before, after);
  if (quick !== undefined) return quick;
  const { chars: old, plain: oldPlain } = styledLine(before, cache);
  const { chars: next, plain: nextPlain } = styledLine(after, cache);
  if (!oldPlain || !nextPlain) return `\r${after}${ERASE_LINE_END}`;
  let start = 0;
  while (
    start < old.length &&
    start < next.length &&
    sameChar(old[start] as StyledChar, next[start] as StyledChar)
  )
    start++;
  let end = 0;
  while (
    end < old.length - start &&
    end < next.length - start &&
    sameChar(old[old.length - 1 - end] as StyledChar, next[next.length - 1 - end] as StyledChar)
  )
    end++;
  const changedOld = old.slice(start, old.length - end);
  const changedNew = next.slice(start, next.length - end);
  if (changedNew.length === 0 && changedOld.length === 0) return "";
  const column = toColumn(start);
  if (widthOf(changedOld) === widthOf(changedNew)) return column + styledCharsToString(changedNew);
  const shorter = widthOf(next) < widthOf(old);
  return column + styledCharsToString(next.slice(start)) + (shorter ? ERASE_LINE_END : "");
}

/** An SGR sequence (colours, bold, inverse…): the only escapes in a row ink renders, bar links. */
const SGR = /\x1b\[[\d;]*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Resets every style: ends a write whose last style is not known to be closed. */
const RESET = `${CSI}0m`;

/** The styles in force after `text` (its SGR sequences, reduced), as one string of codes. */
function stylesAfter(text: string): string {
  const codes = text.match(SGR);
  if (!codes) return "";
  const tokens = tokenize(codes.join("")).filter((token): token is AnsiCode => token.type === "ansi");
  return ansiCodesToString(reduceAnsiCodes(tokens));
}

/** Whether each character of `text` (styles stripped) takes one cell on any terminal. */
function oneCellEach(text: string): boolean {
  if (PRINTABLE_ASCII.test(text)) return true;
  return !UNCERTAIN_WIDTH.test(text) && stringWidth(text) === [...text].length;
}

/**
 * The common case of `diffFrameLine` without splitting either line into styled characters (300–400
 * µs for a 100-column row, most of a key's echo): the two rows differ in one stretch of printable
 * ASCII and styles, of the same width, after a prefix of one-cell characters, and the styles in
 * force after the stretch are the same in both. Then the stretch is written at its column, in the
 * prefix's styles, and the styles reset. `undefined` when the case does not hold.
 */
function diffAsText(before: string, after: string): string | undefined {
  const shortest = Math.min(before.length, after.length);
  let start = 0;
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // Not inside an escape sequence: back to the escape the shared prefix ends in.
  const lastEscape = before.lastIndexOf("\x1b", start - 1);
  if (lastEscape >= 0 && before.indexOf("m", lastEscape) >= start) start = lastEscape;
  let end = 0;
  while (
    end < shortest - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end++;
  end = Math.min(end, sharedTailOutsideEscapes(before, end), sharedTailOutsideEscapes(after, end));
  const prefix = after.slice(0, start);
  const changedOld = before.slice(start, before.length - end);
  const changedNew = after.slice(start, after.length - end);
  if (before.replace(SGR, "").includes("\x1b") || after.replace(SGR, "").includes("\x1b")) return undefined;
  const oldText = changedOld.replace(SGR, "");
  const newText = changedNew.replace(SGR, "");
  if (oldText.length !== newText.length || !PRINTABLE_ASCII.test(oldText) || !PRINTABLE_ASCII.test(newText))
    return undefined;
  const prefixText = prefix.replace(SGR, "");
  if (!oneCellEach(prefixText)) return undefined;
  const prefixStyles = stylesAfter(prefix);
  if (stylesAfter(prefix + changedOld) !== stylesAfter(prefix + changedNew)) return undefined;
  const styled = prefixStyles !== "" || changedNew !== newText;
  return `${toColumn([...prefixText].length)}${prefixStyles}${changedNew}${styled ? RESET : ""}`;
}

/** How much of a shared tail of `length` characters of `line` starts outside an escape sequence. */
function sharedTailOutsideEscapes(line: string, length: number): number {
  const tailStart = line.length - length;
  const lastEscape = line.lastIndexOf("\x1b", tailStart - 1);
  if (lastEscape < 0) return length;
  const terminator = line.indexOf("m", lastEscape);
  return terminator >= tailStart ? line.length - terminator - 1 : length;
}
