import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { liveRegionStream, rowsOf } from "./live-region-stream.js";

/** What ink's log writes to erase `count` lines (ansi-escapes `eraseLines`). */
const eraseLines = (count: number) =>
  count === 0 ? "" : `${Array.from({ length: count }, () => "\x1b[2K").join("\x1b[1A")}\x1b[G`;

function fakeTerminal(columns: number) {
  const writes: string[] = [];
  const terminal = Object.assign(new EventEmitter(), {
    columns,
    rows: 30,
    isTTY: true,
    write: (chunk: string) => {
      writes.push(chunk);
      return true;
    },
  });
  return { terminal: terminal as unknown as NodeJS.WriteStream & { columns: number }, writes };
}

describe("liveRegionStream", () => {
  it("parks the cursor on the first row of each frame, and erases from there for the next", () => {
    const { terminal, writes } = fakeTerminal(20);
    const { stream } = liveRegionStream(terminal);
    stream.write("a line of twenty col\nshort\n");
    // Two rows: back up two, column 1.
    expect(writes.at(-1)).toBe("a line of twenty col\nshort\n\r\x1b[2A");
    stream.write(`${eraseLines(3)}next frame\n`);
    expect(writes.at(-1)).toBe("\r\x1b[Jnext frame\n\r\x1b[1A");
  });

  it("counts rows at the terminal's width now: a narrower terminal wraps the frame into more", () => {
    const { terminal, writes } = fakeTerminal(20);
    const { stream } = liveRegionStream(terminal);
    stream.write("a line of twenty col\nshort\n");
    terminal.columns = 10;
    // ink on a narrowing: log.clear(), then the frame laid out for the old width.
    stream.write(eraseLines(2));
    expect(writes.at(-1)).toBe("\r\x1b[J");
    stream.write("a line of twenty col\nshort\n");
    expect(writes.at(-1)).toBe("a line of twenty col\nshort\n\r\x1b[3A");
  });

  it("writes the frame below a finished item written just before it, and leaves synchronized output alone", () => {
    const { terminal, writes } = fakeTerminal(80);
    const { stream } = liveRegionStream(terminal);
    stream.write("frame\n");
    stream.write(eraseLines(1)); // log.clear()
    stream.write("\x1b[?2026h");
    stream.write("finished item\n\n");
    stream.write("frame\n");
    stream.write("\x1b[?2026l");
    expect(writes.slice(1)).toEqual([
      "\r\x1b[J",
      "\x1b[?2026h",
      "finished item\n\n\r\x1b[2A",
      "\x1b[2B\rframe\n\r\x1b[1A",
      "\x1b[?2026l",
    ]);
  });

  it("moves below the last frame when released, and never sends the erase of the scrollback", () => {
    const { terminal, writes } = fakeTerminal(20);
    const screen = liveRegionStream(terminal);
    screen.stream.write("\x1b[2J\x1b[3J\x1b[Hframe\nline\n");
    expect(writes.at(-1)).toBe("\x1b[2J\x1b[Hframe\nline\n\r\x1b[2A");
    screen.release();
    expect(writes.at(-1)).toBe("\x1b[2B\r");
  });

  it("counts wide characters and a frame without its last newline", () => {
    expect(rowsOf("漢字漢字漢字\n", 4)).toBe(3);
    expect(rowsOf("one\ntwo", 80)).toBe(2);
    expect(rowsOf("\n", 80)).toBe(1);
  });
});
