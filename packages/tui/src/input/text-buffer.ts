import { displayWidth, graphemes } from "../text/display-width.js";

/**
 * Editable text with a cursor. `cursor` is an index into `text` (UTF-16 units) that always sits
 * on a grapheme boundary: every move and deletion steps over whole user-perceived characters, so
 * a CJK character, an emoji with modifiers or a flag is never split.
 */
export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

export const EMPTY_BUFFER: TextBuffer = { text: "", cursor: 0 };

/** A buffer holding `text` with the cursor at its end. */
export function bufferOf(text: string): TextBuffer {
  return { text, cursor: text.length };
}

function lineStartAt(text: string, index: number): number {
  return text.lastIndexOf("\n", index - 1) + 1;
}

function lineEndAt(text: string, index: number): number {
  const end = text.indexOf("\n", index);
  return end < 0 ? text.length : end;
}

/** Index of the grapheme boundary before `cursor`. */
export function previousBoundary(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const start = lineStartAt(text, cursor);
  if (start === cursor) return cursor - 1;
  const parts = graphemes(text.slice(start, cursor));
  return cursor - (parts.at(-1)?.length ?? 1);
}

/** Index of the grapheme boundary after `cursor`. */
export function nextBoundary(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  if (text[cursor] === "\n") return cursor + 1;
  const parts = graphemes(text.slice(cursor, lineEndAt(text, cursor)));
  return cursor + (parts[0]?.length ?? 1);
}

/** Inserts text at the cursor; `\r\n` and `\r` (pasted from some terminals) become `\n`. */
export function insertText(buffer: TextBuffer, inserted: string): TextBuffer {
  const clean = inserted.replace(/\r\n?/g, "\n");
  const text = buffer.text.slice(0, buffer.cursor) + clean + buffer.text.slice(buffer.cursor);
  return { text, cursor: buffer.cursor + clean.length };
}

export function deleteBackward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const start = previousBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const end = nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(end), cursor: buffer.cursor };
}

export function moveLeft(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: previousBoundary(buffer.text, buffer.cursor) };
}

export function moveRight(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: nextBoundary(buffer.text, buffer.cursor) };
}

/** Home: the start of the cursor's line. */
export function moveLineStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineStartAt(buffer.text, buffer.cursor) };
}

/** End: the end of the cursor's line. */
export function moveLineEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: lineEndAt(buffer.text, buffer.cursor) };
}

/** Ctrl+A: the start of the whole input. */
export function moveStart(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: 0 };
}

/** Ctrl+E: the end of the whole input. */
export function moveEnd(buffer: TextBuffer): TextBuffer {
  return { ...buffer, cursor: buffer.text.length };
}

/** Ctrl+U: deletes from the start of the cursor's line to the cursor (the previous newline at a line start). */
export function deleteToLineStart(buffer: TextBuffer): TextBuffer {
  const start = lineStartAt(buffer.text, buffer.cursor);
  const from = start === buffer.cursor ? Math.max(0, start - 1) : start;
  return { text: buffer.text.slice(0, from) + buffer.text.slice(buffer.cursor), cursor: from };
}

/** Ctrl+W: deletes the word before the cursor and the spaces after it. */
export function deleteWordBackward(buffer: TextBuffer): TextBuffer {
  const before = buffer.text.slice(0, buffer.cursor);
  const match = /(?:[^\s]+[^\S\n]*|[^\S\n]+|\n)$/u.exec(before);
  const from = match ? match.index : buffer.cursor;
  return { text: buffer.text.slice(0, from) + buffer.text.slice(buffer.cursor), cursor: from };
}

/** The cursor's line (0-based), its column in terminal cells, and the lines. */
export function cursorPosition(buffer: TextBuffer): { lines: string[]; row: number; column: number } {
  const lines = buffer.text.split("\n");
  const before = buffer.text.slice(0, buffer.cursor);
  const row = before.split("\n").length - 1;
  return { lines, row, column: displayWidth(before.slice(lineStartAt(before, before.length))) };
}

/** The index in `line` (starting at `offset`) whose cell column is closest to `column` from the left. */
function indexAtColumn(line: string, offset: number, column: number): number {
  let used = 0;
  let index = offset;
  for (const grapheme of graphemes(line)) {
    const width = displayWidth(grapheme);
    if (used + width > column) break;
    used += width;
    index += grapheme.length;
  }
  return index;
}

/** ↑ in a multi-line input: the same cell column on the line above; undefined on the first line. */
export function moveUp(buffer: TextBuffer): TextBuffer | undefined {
  const { row, column } = cursorPosition(buffer);
  if (row === 0) return undefined;
  const lineStart = lineStartAt(buffer.text, buffer.cursor);
  const previousStart = lineStartAt(buffer.text, lineStart - 1);
  const previousLine = buffer.text.slice(previousStart, lineStart - 1);
  return { ...buffer, cursor: indexAtColumn(previousLine, previousStart, column) };
}

/** ↓ in a multi-line input: the same cell column on the line below; undefined on the last line. */
export function moveDown(buffer: TextBuffer): TextBuffer | undefined {
  const lineEnd = lineEndAt(buffer.text, buffer.cursor);
  if (lineEnd >= buffer.text.length) return undefined;
  const { column } = cursorPosition(buffer);
  const nextStart = lineEnd + 1;
  const nextLine = buffer.text.slice(nextStart, lineEndAt(buffer.text, nextStart));
  return { ...buffer, cursor: indexAtColumn(nextLine, nextStart, column) };
}
