import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { keepScrollbackStream, rowsOf } from "./keep-scrollback-stream.js";

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

describe("keepScrollbackStream", () => {
  it("never sends the erase of the scrollback, and passes everything else through", () => {
    const { terminal, writes } = fakeTerminal(20);
    const stream = keepScrollbackStream(terminal);
    stream.write("\x1b[2J\x1b[3J\x1b[Hframe\nline\n");
    stream.write("\x1b[?2026h");
    expect(writes).toEqual(["\x1b[2J\x1b[Hframe\nline\n", "\x1b[?2026h"]);
    expect(stream.columns).toBe(20);
  });

  it("counts wide characters and a frame without its last newline", () => {
    expect(rowsOf("漢字漢字漢字\n", 4)).toBe(3);
    expect(rowsOf("one\ntwo", 80)).toBe(2);
    expect(rowsOf("\n", 80)).toBe(1);
  });
});
