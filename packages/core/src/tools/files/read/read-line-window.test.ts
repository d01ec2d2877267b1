import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLineWindow } from "./read-line-window.js";

describe("readLineWindow", () => {
  it("matches a plain split of the file: CRLF, empty lines, and characters cut by the 64 KiB chunks", async () => {
    const dir = await mkdtemp(join(tmpdir(), "nyzhi-line-window-"));
    const lines: string[] = [];
    for (let index = 0; lines.join("\n").length < 200_000; index++) {
      const width = (index * 37) % 90;
      lines.push(
        index % 11 === 0
          ? ""
          : `${index}:${"é✓😀ab".repeat(width % 7)}${"x".repeat(width)}${index % 5 === 0 ? "\r" : ""}`,
      );
    }
    const path = join(dir, "text.txt");
    await writeFile(path, lines.join("\n"));
    const expected = lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
    for (const [offset, limit] of [
      [1, 50],
      [1500, 400],
      [2000, 3000],
    ] as const) {
      const window = await readLineWindow(path, {
        offset,
        limit,
        maxLineChars: 2000,
        countLinesUpToBytes: 10_000_000,
      });
      expect(window.lines).toEqual(expected.slice(offset - 1, offset - 1 + limit));
      expect(window.totalLines).toBe(lines.length);
    }
  });
});
