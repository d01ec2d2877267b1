import {
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
