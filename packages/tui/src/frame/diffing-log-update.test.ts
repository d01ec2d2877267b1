import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { expectedCells, ScreenModel, trimmed } from "./__fixtures__/screen-model.js";
import { createDiffingLogUpdate } from "./diffing-log-update.js";

const BORDER = "\x1b[38;5;180m";
const MUTED = "\x1b[38;5;102m";
const RESET_FG = "\x1b[39m";
const WIDTH = 100;

/** The app's input box and footer, as ink renders them, with `typed` in it. */
function inputFrame(typed: string, footer = "enter send · shift+enter newline"): string {
  const inner = WIDTH - 2;
  const text = ` ${BORDER}› ${RESET_FG}${typed}\x1b[7m \x1b[27m`;
  const used = 3 + typed.length + 1;
  return [
    `${BORDER}╭${"─".repeat(inner)}╮${RESET_FG}`,
    `${BORDER}│${RESET_FG}${text}${" ".repeat(inner - used)}${BORDER}│${RESET_FG}`,
    `${BORDER}╰${"─".repeat(inner)}╯${RESET_FG}`,
    `${MUTED}${footer}${RESET_FG}`,
    "",
  ].join("\n");
}

/** A terminal with two lines of shell output, and the writer drawing below them. */
function setUp() {
  const screen = new ScreenModel();
  screen.write("$ earlier output\n$ nyz\n");
  const written: string[] = [];
  const terminal = {
    columns: WIDTH,
    write: (data: string) => {
      written.push(data);
      screen.write(data);
    },
    isTTY: true,
  };
  const log = createDiffingLogUpdate(terminal);
  /** Whether the screen shows `frame` below the shell's lines, and nothing under it. */
  const shows = (frame: string) => {
    expect(screen.text().slice(0, 2)).toEqual(["$ earlier output", "$ nyz"]);
    const cells = expectedCells(frame);
    expect(trimmed(screen.rows.slice(2, 2 + cells.length))).toEqual(trimmed(cells));
    expect(screen.rows.slice(2 + cells.length).every((row) => row.every((cell) => cell.value === " "))).toBe(
      true,
    );
    // The cursor rests on the frame's first row, column 1: a resize re-wraps the frame below it.
    expect([screen.row, screen.column]).toEqual([2, 0]);
  };
  return { screen, written, log, shows, terminal };
}

describe("createDiffingLogUpdate", () => {
  it("echoes a typed key by writing the changed cells only", () => {
    const { written, log, shows } = setUp();
    log(inputFrame("hello"));
    shows(inputFrame("hello"));
    written.length = 0;
    log(inputFrame("hello!"));
    shows(inputFrame("hello!"));
    expect(written.join("").length).toBeLessThan(40);
    log(inputFrame("hell"));
    shows(inputFrame("hell"));
  });

  it("keeps the screen equal to each frame through growing, shrinking, restyled and rewritten ones", () => {
    const { log, shows } = setUp();
    const frames = [
      inputFrame(""),
      inputFrame("a"),
      `\x1b[1mthinking\x1b[22m\n${inputFrame("a")}`,
      `\x1b[1mthinking\x1b[22m\n\x1b[32m● read notes.txt\x1b[39m\n${inputFrame("ab", "esc interrupt")}`,
      `\x1b[1mthinking…\x1b[22m\n${inputFrame("ab", "esc interrupt")}`,
      inputFrame("a long line of text that is typed and then mostly removed again"),
      inputFrame("a"),
      "one line\n",
      `日本語 wide ✓ mark\n${inputFrame("")}`,
      `日本語 wider ✓ mark\n${inputFrame("")}`,
      inputFrame(""),
    ];
    for (const frame of frames) {
      log(frame);
      shows(frame);
    }
  });

  it("clears the frame for ink's finished items, which go where it was, then draws the next below them", () => {
    const { screen, log } = setUp();
    log(inputFrame("x"));
    log.clear();
    expect(
      screen
        .text()
        .slice(2)
        .every((row) => row === ""),
    ).toBe(true);
    screen.write("a finished answer\n");
    log(inputFrame(""));
    expect(screen.text()[2]).toBe("a finished answer");
    const cells = expectedCells(inputFrame(""));
    expect(trimmed(screen.rows.slice(3, 3 + cells.length))).toEqual(trimmed(cells));
    expect([screen.row, screen.column]).toEqual([3, 0]);
  });

  it("writes a frame whose lines a narrower terminal wraps whole, and moves back by their rows", () => {
    const { written, log, terminal } = setUp();
    log(inputFrame("x"));
    terminal.columns = 60;
    written.length = 0;
    log(inputFrame("xy"));
    // Erased from the first row down, written again; each 100-column line now takes two rows (the
    // footer one): back up seven.
    expect(written.join("")).toMatch(/^\r\x1b\[2K\x1b7\x1b\[1B\x1b\[J\x1b8/);
    expect(written.join("")).toMatch(/\r\x1b\[7A$/);
  });

  it("draws a frame as tall as the screen by its last rows, one fewer than the screen has", () => {
    const { screen, written, log, terminal } = setUp();
    Object.assign(terminal, { rows: 10 });
    const lines = Array.from({ length: 15 }, (_, index) => `line ${index}`);
    log.setCursorPosition({ x: 3, y: 13 });
    log(`${lines.join("\n")}\n`);
    // Lines 6–14 (nine rows) are drawn from the frame's first row; the cursor moves with them.
    expect(screen.text().slice(2, 12)).toEqual([...lines.slice(6), ""]);
    expect(written.join("")).not.toContain("line 5");
    expect([screen.row, screen.column]).toEqual([2 + 13 - 6, 3]);
    // A frame that fits is drawn whole again, from the same first row.
    log.setCursorPosition(undefined);
    log("short\n");
    expect(
      screen
        .text()
        .slice(2)
        .filter((row) => row !== ""),
    ).toEqual(["short"]);
    expect([screen.row, screen.column]).toEqual([2, 0]);
  });

  it("erases a frame at the screen's top-left without pushing it into the scrollback (tmux's scroll-on-clear)", () => {
    const screen = new ScreenModel();
    const log = createDiffingLogUpdate({
      columns: WIDTH,
      write: (data: string) => screen.write(data),
      isTTY: true,
    });
    log(inputFrame("draft"));
    log(`thinking\n${inputFrame("draft")}`);
    log.clear();
    screen.write("a finished answer\n");
    log(inputFrame(""));
    expect(screen.history).toEqual([]);
    expect(screen.text()[0]).toBe("a finished answer");
  });

  it("draws the whole frame again after the terminal got shorter, whose rows below the cursor tmux deleted", () => {
    const { screen, log, terminal, shows } = setUp();
    Object.assign(terminal, { rows: 24 });
    const streaming = (spinner: string) => `● an answer being written\n${spinner} working\n${inputFrame("")}`;
    log(streaming("⠋"));
    // The window made shorter: tmux deletes rows from the bottom up to the cursor's (the frame's
    // first) row, so the frame's last rows are gone and a move down stops at the screen's last row.
    screen.rows.splice(4);
    Object.assign(terminal, { rows: 15 });
    log(streaming("⠙"));
    shows(streaming("⠙"));
    // ink's finished items go where the frame was: the shell's lines above stay.
    log.clear();
    screen.write("● a finished block\n");
    log(streaming("⠹"));
    expect(screen.text().slice(0, 3)).toEqual(["$ earlier output", "$ nyz", "● a finished block"]);
  });

  it("draws the frame again when a shorter terminal deleted its rows and ink drew nothing for the resize", async () => {
    const { screen, terminal, shows } = setUp();
    const events = new EventEmitter();
    // ink hands the writer its stdout at the start: the stream the resize events come from.
    const resizable = Object.assign(terminal, {
      rows: 24,
      on: (event: "resize", listener: () => void) => events.on(event, listener),
      off: (event: "resize", listener: () => void) => events.off(event, listener),
    });
    const writer = createDiffingLogUpdate(resizable);
    writer.clear();
    writer(inputFrame("typed"));
    screen.rows.splice(4);
    resizable.rows = 15;
    events.emit("resize");
    await new Promise((resolve) => setImmediate(resolve));
    shows(inputFrame("typed"));
    writer.done();
    expect(events.listenerCount("resize")).toBe(0);
  });

  it("returns to the frame's first row after a diff even when a shorter terminal deleted the rows below it", () => {
    const { screen, log, shows } = setUp();
    log(inputFrame("a"));
    // tmux, made shorter before it reads the next frame, deletes the rows below the cursor: a move
    // down stops at the screen's last row.
    screen.rows.splice(3);
    log(inputFrame("ab"));
    expect([screen.row, screen.column]).toEqual([2, 0]);
    // The next whole frame (ink's, after the resize) is drawn from there: the shell's lines stay.
    log.clear();
    log(inputFrame("ab"));
    shows(inputFrame("ab"));
  });

  it("draws a frame that grows whole from its first row, so rows a shorter terminal deleted do not matter", () => {
    const { screen, log, shows } = setUp();
    log(inputFrame("a"));
    screen.rows.splice(3);
    log(`thinking\n${inputFrame("a")}`);
    shows(`thinking\n${inputFrame("a")}`);
  });

  it("leaves the cursor below the last frame at the end, for the shell", () => {
    const { screen, log } = setUp();
    log(inputFrame("bye"));
    log.done();
    expect([screen.row, screen.column]).toEqual([2 + expectedCells(inputFrame("bye")).length, 0]);
  });

  it("writes nothing for a frame equal to the last", () => {
    const { written, log } = setUp();
    expect(log(inputFrame("same"))).toBe(true);
    written.length = 0;
    expect(log(inputFrame("same"))).toBe(false);
    expect(written).toEqual([]);
  });
});
