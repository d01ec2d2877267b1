import stringWidth from "string-width";
import { terminalHeightNow, terminalWidthNow } from "../terminal/keep-scrollback-stream.js";
import { diffFrameLine, type StyledLineCache, toColumn } from "./diff-frame-line.js";

/**
 * ink's frame writer ("log update"), replaced (decision 018). ink hands it each frame of the live
 * region (the rows below the finished transcript); ink's own writer erased every row of the last
 * frame and wrote the new one whole (~1 KB for one key typed into a 100-column input box). This one:
 *
 * - writes only the cells that changed: a key's echo is a move down to the input row, the changed
 *   cells, and a move back (~40 bytes);
 * - rests the cursor on the live region's first row, column 1, between frames (as Codex's viewport
 *   does), so a terminal that re-wraps the region on a resize keeps the cursor's row in place, and
 *   the next full frame erases from there down ("erase below"): the scrollback above is never
 *   touched (issue 27);
 * - fits a frame to the screen: a frame as tall as the screen or taller is drawn by its last rows,
 *   one fewer than the screen has, so the cursor can always return to its first row (ink, given
 *   this writer, no longer clears the screen and rewrites the scrollback for such a frame: the
 *   patch). The rows above are what is written to the scrollback once finished (ink `<Static>`);
 * - draws the first frame after a resize whole, and draws the last one again when ink draws none
 *   for the resize: a shorter tmux deleted the frame's last rows, where no diff may move to.
 *
 * The same interface as ink's, which `render`'s `logUpdate` option takes (`patches/ink@6.8.0.patch`).
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
  columns?: number;
  rows?: number;
  getWindowSize?: () => [number, number];
  on?: (event: "resize", listener: () => void) => unknown;
  off?: (event: "resize", listener: () => void) => unknown;
}

const CSI = "\x1b[";
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;
/** DECSC / DECRC: the cursor's place, kept and gone back to (a move may stop at the screen's edge). */
const SAVE_CURSOR = "\x1b7";
const RESTORE_CURSOR = "\x1b8";
/**
 * Column 1, then erase to the end of the screen: below the live region there is nothing else. The
 * first row is erased as a line and the rest from the row below (the cursor saved and restored
 * around it): tmux moves the whole screen into its scrollback when the erase starts at the
 * top-left cell, where a live region in a fresh pane or after a resize begins.
 */
const ERASE_BELOW = `\r${CSI}2K${SAVE_CURSOR}${CSI}1B${CSI}J${RESTORE_CURSOR}`;
const up = (rows: number) => (rows > 0 ? `${CSI}${rows}A` : "");
const down = (rows: number) => (rows > 0 ? `${CSI}${rows}B` : "");

/** A frame's lines: ink ends each frame with a newline, unless the frame fills the screen. */
function linesOf(output: string): string[] {
  const lines = output.split("\n");
  if (output.endsWith("\n")) lines.pop();
  return lines;
}

const samePosition = (a: CursorPosition | undefined, b: CursorPosition | undefined) =>
  a?.x === b?.x && a?.y === b?.y;

export function createDiffingLogUpdate(stream: Stream, { showCursor = false } = {}): LogUpdate {
  /** The frame on the screen ("" when none), its cursor resting on the frame's first row. */
  let previous = "";
  let cursorHidden = false;
  let cursor: CursorPosition | undefined;
  let cursorDirty = false;
  /** The cursor shown inside the frame (`setCursorPosition`), else it rests on the first row. */
  let shownCursor: CursorPosition | undefined;

  const width = () => terminalWidthNow(stream) || 80;
  /**
   * The terminal's size when `previous` was drawn. After a resize the rows below the cursor are not
   * to be trusted: tmux, made shorter, deletes the frame's last rows, and a move down to a changed
   * row stops at the screen's last one, so the move back up would land above the frame and the next
   * erase take finished rows of the scrollback with it. Such a frame is drawn whole.
   */
  let drawnSize = "";
  const sizeNow = () => `${width()}x${stream.isTTY ? (terminalHeightNow(stream) ?? 0) : 0}`;
  /** The last frame given (before `fitToScreen`), drawn again after a resize ink drew nothing for. */
  let lastFrame = "";
  /**
   * Rows of each line at the width they were measured at, for the lines of the frame on screen and
   * the one being written: a key's frame differs from the last in a line or two, and measuring
   * every line's width again (string-width on ANSI text) was the largest part of writing it.
   */
  let measured = new Map<string, number>();
  const styledLines: StyledLineCache = new Map();
  let measuredWidth = 0;
  const rowsOfLines = (lines: readonly string[], columns: number, keep: Map<string, number>): number => {
    if (columns !== measuredWidth) {
      measured = new Map();
      measuredWidth = columns;
    }
    let rows = 0;
    for (const line of lines) {
      let lineRows = measured.get(line) ?? keep.get(line);
      if (lineRows === undefined) lineRows = Math.max(1, Math.ceil(stringWidth(line) / columns));
      keep.set(line, lineRows);
      rows += lineRows;
    }
    return rows;
  };
  /** The rows `output` takes at `columns` (as `rowsOf` counts them), remembering its lines' rows. */
  const rowsOf = (output: string, columns: number, keep = new Map<string, number>()) =>
    rowsOfLines(linesOf(output.endsWith("\n") ? output : `${output}\n`), columns, keep);
  const activeCursor = () => (cursorDirty ? cursor : undefined);
  /** From a cursor shown inside the frame back to the frame's first row. */
  const backToTop = () => (shownCursor ? `${HIDE_CURSOR}${up(shownCursor.y)}\r` : "");
  /** From the first row to a cursor position in the frame, shown there. */
  const toCursor = (position: CursorPosition | undefined) =>
    position ? `${down(position.y)}${toColumn(position.x)}${SHOW_CURSOR}` : "";
  /** After `output` was written from its first row: back to that row (its rows at today's width). */
  const park = (output: string) => {
    const rows = rowsOf(output, width());
    return `\r${up(output.endsWith("\n") ? rows : rows - 1)}`;
  };
  /** Whether each line of both frames takes one row: the changes can be written row by row. */
  const diffable = (before: readonly string[], after: readonly string[], keep: Map<string, number>) => {
    const columns = width();
    return (
      previous.endsWith("\n") &&
      rowsOfLines(before, columns, keep) === before.length &&
      rowsOfLines(after, columns, keep) === after.length
    );
  };

  /**
   * `output` as it fits the screen: its last lines that take at most one row fewer than the screen
   * has, and how many lines were left out above them.
   */
  const fitToScreen = (output: string): { output: string; dropped: number } => {
    const height = stream.isTTY ? terminalHeightNow(stream) : undefined;
    if (!height || height < 2) return { output, dropped: 0 };
    const lines = linesOf(output);
    const columns = width();
    // A line takes at most 1 + its length / columns rows: most frames fit without measuring.
    if (lines.length + output.length / columns <= height - 1) return { output, dropped: 0 };
    let rows = 0;
    let first = lines.length;
    while (first > 0) {
      const line = lines[first - 1] as string;
      const lineRows =
        (columns === measuredWidth ? measured.get(line) : undefined) ??
        Math.max(1, Math.ceil(stringWidth(line) / columns));
      if (rows + lineRows > height - 1) break;
      rows += lineRows;
      first--;
    }
    if (first === 0) return { output, dropped: 0 };
    // One line taller than the screen: its end is shown (the terminal scrolls it).
    first = Math.min(first, lines.length - 1);
    const kept = lines.slice(first).join("\n");
    return { output: output.endsWith("\n") ? `${kept}\n` : kept, dropped: first };
  };
  /** The cursor's place in a frame whose first `dropped` lines were left out (none when they hold it). */
  const shiftCursor = (position: CursorPosition | undefined, dropped: number) =>
    !position || dropped === 0
      ? position
      : position.y < dropped
        ? undefined
        : { x: position.x, y: position.y - dropped };

  const changes = (output: string): string => {
    const before = linesOf(previous);
    const after = linesOf(output);
    const keep = new Map<string, number>();
    const rowByRow = output.endsWith("\n") && diffable(before, after, keep);
    // What is kept measured: this frame's lines and the last one's (the next frame is diffed against them).
    measured = keep;
    if (!rowByRow) return `${ERASE_BELOW}${output}${park(output)}`;
    // New rows below: the frame is written whole from its first row, with newlines (which scroll
    // the screen when it is full), and the cursor moves back up by its rows. Not the changed rows
    // and then the new ones: a terminal made shorter before it reads this frame has deleted the rows
    // below the first, a move down to the new rows would stop short, and the move back up would
    // land above the frame, in the scrollback.
    if (after.length > before.length) return `${ERASE_BELOW}${output}${park(output)}`;
    let written = "";
    let row = 0;
    for (let index = 0; index < Math.min(before.length, after.length); index++) {
      const line = diffFrameLine(before[index] as string, after[index] as string, styledLines);
      if (line === "") continue;
      written += down(index - row) + line;
      row = index;
    }
    // Back to the first row by the position saved there (DECSC / DECRC), not by moving up as many
    // rows as were moved down: a terminal made shorter before it reads this frame has deleted the
    // rows below, a move down stops at its last row, and the same move up would land above the
    // frame, in the scrollback, which the next erase would then take.
    if (after.length < before.length)
      return after.length === 0
        ? `${written}\r${up(row)}${ERASE_BELOW}`
        : `${SAVE_CURSOR}${written}${down(after.length - row)}\r${CSI}J${RESTORE_CURSOR}`;
    return row === 0 ? `${written}\r` : `${SAVE_CURSOR}${written}${RESTORE_CURSOR}`;
  };

  const render = ((frame: string): boolean => {
    if (!showCursor && !cursorHidden && stream.isTTY) {
      stream.write(HIDE_CURSOR);
      cursorHidden = true;
    }
    const { output, dropped } = fitToScreen(frame);
    const position = shiftCursor(activeCursor(), dropped);
    cursorDirty = false;
    const size = sizeNow();
    if (output === previous && samePosition(position, shownCursor) && size === drawnSize) return false;
    let written = backToTop();
    if (output !== previous || size !== drawnSize) {
      written +=
        previous === "" || size !== drawnSize ? `${ERASE_BELOW}${output}${park(output)}` : changes(output);
    }
    stream.write(written + toCursor(position));
    previous = output;
    lastFrame = frame;
    drawnSize = size;
    shownCursor = position ? { ...position } : undefined;
    return true;
  }) as LogUpdate;

  render.clear = () => {
    stream.write(backToTop() + ERASE_BELOW);
    previous = "";
    shownCursor = undefined;
  };
  /**
   * ink draws nothing on a resize that leaves its output as it was (a shorter terminal), yet tmux
   * deleted the frame's last rows: once ink has had its turn, a frame not drawn at today's size is
   * drawn again (the cursor where it was asked to be).
   */
  const onResize = () =>
    setImmediate(() => {
      if (previous === "" || sizeNow() === drawnSize) return;
      cursorDirty = cursor !== undefined;
      render(lastFrame);
    });
  stream.on?.("resize", onResize);
  /** The end: the cursor goes below the last frame, where the shell's prompt comes next. */
  render.done = () => {
    stream.off?.("resize", onResize);
    let written = backToTop();
    if (previous !== "") {
      const rows = rowsOf(previous, width());
      written += previous.endsWith("\n") ? `${down(rows)}\r` : `${down(rows - 1)}\r\n`;
    }
    if (!showCursor && cursorHidden) {
      if (stream.isTTY) written += SHOW_CURSOR;
      cursorHidden = false;
    }
    if (written !== "") stream.write(written);
    previous = "";
    shownCursor = undefined;
  };
  /** ink wrote `output` itself (after clearing the screen), leaving the cursor after it. */
  render.sync = (frame: string) => {
    const { output, dropped } = fitToScreen(frame);
    const position = shiftCursor(activeCursor(), dropped);
    cursorDirty = false;
    stream.write((output === "" ? "" : park(output)) + (position ? toCursor(position) : ""));
    previous = output;
    lastFrame = frame;
    drawnSize = sizeNow();
    shownCursor = position ? { ...position } : undefined;
  };
  render.setCursorPosition = (position) => {
    cursor = position;
    cursorDirty = true;
  };
  render.isCursorDirty = () => cursorDirty;
  render.willRender = (frame) => {
    const { output, dropped } = fitToScreen(frame);
    return (
      output !== previous ||
      sizeNow() !== drawnSize ||
      !samePosition(shiftCursor(activeCursor(), dropped), shownCursor)
    );
  };
  return render;
}
