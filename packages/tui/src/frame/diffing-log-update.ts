import { diffFrameLine, toColumn } from "./diff-frame-line.js";

/**
 * ink's frame writer ("log update"), replaced (decision 016): ink hands it each frame of the live
 * region, and ink's own writer erases every line of the last frame and writes the new one whole
 * (~1 KB for one typed key in a 100-column input box), or, in its incremental mode, every changed
 * line whole. This one writes only the cells that changed: a key's echo is a move up to the input
 * line, the few changed cells, and a move back (~40 bytes). The same interface as ink's, which
 * `render`'s `logUpdate` option takes (a patch of ink, `patches/ink@6.8.0.patch`).
 */
export interface LogUpdate {
  (output: string): boolean;
  clear(): void;
  done(): void;
  sync(output: string): void;
  setCursorPosition(position: CursorPosition | undefined): void;
  isCursorDirty(): boolean;
  willRender(output: string): boolean;
}

export interface CursorPosition {
  x: number;
  y: number;
}

interface Stream {
  write(data: string): unknown;
  isTTY?: boolean;
}

const CSI = "\x1b[";
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;
/** Erases from the cursor to the end of the screen: below the live region there is nothing else. */
const ERASE_DOWN = `${CSI}J`;
const up = (rows: number) => (rows > 0 ? `${CSI}${rows}A` : "");
const down = (rows: number) => (rows > 0 ? `${CSI}${rows}B` : "");

/** ink's `eraseLines`: clears `count` rows upward from the cursor's, ending on the top one's start. */
function eraseLines(count: number): string {
  let erase = "";
  for (let row = 0; row < count; row++) erase += `${CSI}2K${row < count - 1 ? `${CSI}1A` : ""}`;
  return count > 0 ? `${erase}${CSI}G` : "";
}

/** The rows a frame shows: ink ends each frame with a newline, unless it fills the screen. */
function rowsOf(output: string): string[] {
  const rows = output.split("\n");
  if (output.endsWith("\n")) rows.pop();
  return rows;
}

const samePosition = (a: CursorPosition | undefined, b: CursorPosition | undefined) =>
  a?.x === b?.x && a?.y === b?.y;

/**
 * The frames' rows are kept; a new frame that ends with a newline (the cursor then rests on the row
 * below it) after one that did too is written as the changes between the two, row by row. Any other
 * frame (one that fills the screen, the first) is written as ink writes it.
 */
export function createDiffingLogUpdate(stream: Stream, { showCursor = false } = {}): LogUpdate {
  let previous = "";
  let previousRows: string[] = [];
  let cursorHidden = false;
  let cursor: CursorPosition | undefined;
  let cursorDirty = false;
  let previousCursor: CursorPosition | undefined;
  let cursorShown = false;

  /** Rows of the last frame, as ink counts them (a trailing newline counts one more). */
  const lineCount = () => (previous === "" ? 0 : previous.split("\n").length);
  const activeCursor = () => (cursorDirty ? cursor : undefined);
  /** From a shown cursor back to the row below the frame, column 0. */
  const returnToBottom = () => {
    if (!cursorShown || !previousCursor) return "";
    return `${HIDE_CURSOR}${down(lineCount() - 1 - previousCursor.y)}${CSI}G`;
  };
  const cursorSuffix = (rows: number, position: CursorPosition | undefined) =>
    position ? `${up(rows - position.y)}${toColumn(position.x)}${SHOW_CURSOR}` : "";

  const changes = (output: string): string => {
    const before = previousRows;
    const after = rowsOf(output);
    let first = 0;
    while (first < before.length && first < after.length && before[first] === after[first]) first++;
    let written = up(before.length - first);
    let row = first;
    const common = Math.min(before.length, after.length);
    for (let index = first; index < common; index++) {
      const line = diffFrameLine(before[index] as string, after[index] as string);
      if (line === "") continue;
      written += down(index - row) + line;
      row = index;
    }
    if (after.length > before.length) {
      written += `${down(before.length - row)}\r${after.slice(before.length).join("\n")}\n`;
    } else {
      written += `${down(after.length - row)}\r`;
      if (after.length < before.length) written += ERASE_DOWN;
    }
    return written;
  };

  const render = ((output: string): boolean => {
    if (!showCursor && !cursorHidden && stream.isTTY) {
      stream.write(HIDE_CURSOR);
      cursorHidden = true;
    }
    const position = activeCursor();
    cursorDirty = false;
    const cursorMoved = !samePosition(position, previousCursor);
    if (output === previous && !cursorMoved) return false;
    const rows = rowsOf(output).length;
    let written = returnToBottom();
    if (output === previous) {
      // Only the cursor moved.
    } else if (previous.endsWith("\n") && output.endsWith("\n")) {
      written += changes(output);
    } else {
      written += eraseLines(lineCount()) + output;
    }
    written += cursorSuffix(rows, position);
    stream.write(written);
    previous = output;
    previousRows = rowsOf(output);
    previousCursor = position ? { ...position } : undefined;
    cursorShown = position !== undefined;
    return true;
  }) as LogUpdate;

  render.clear = () => {
    const rows = previousRows.length;
    const erase = previous.endsWith("\n") ? `${up(rows)}\r${ERASE_DOWN}` : eraseLines(lineCount());
    stream.write(returnToBottom() + erase);
    previous = "";
    previousRows = [];
    previousCursor = undefined;
    cursorShown = false;
  };
  render.done = () => {
    previous = "";
    previousRows = [];
    previousCursor = undefined;
    cursorShown = false;
    if (!showCursor && cursorHidden) {
      if (stream.isTTY) stream.write(SHOW_CURSOR);
      cursorHidden = false;
    }
  };
  render.sync = (output: string) => {
    const position = activeCursor();
    cursorDirty = false;
    previous = output;
    previousRows = rowsOf(output);
    if (!position && cursorShown) stream.write(HIDE_CURSOR);
    if (position) stream.write(cursorSuffix(previousRows.length, position));
    previousCursor = position ? { ...position } : undefined;
    cursorShown = position !== undefined;
  };
  render.setCursorPosition = (position) => {
    cursor = position;
    cursorDirty = true;
  };
  render.isCursorDirty = () => cursorDirty;
  render.willRender = (output) => output !== previous || !samePosition(activeCursor(), previousCursor);
  return render;
}
