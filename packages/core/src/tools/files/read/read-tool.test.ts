import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../../testing/create-test-context.js";
import { runTool } from "../../testing/run-tool.js";
import { readLineWindow } from "./read-line-window.js";
import { readTool } from "./read-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
});
afterEach(async () => {
  await test.cleanup();
});

describe("read", () => {
  it("numbers lines six wide", async () => {
    await writeFile(join(test.cwd, "a.txt"), "one\ntwo\r\nthree\n");
    const result = await runTool(readTool, { file_path: "a.txt" }, test.context);
    expect(result).toEqual({
      output: "     1|one\n     2|two\n     3|three",
      metadata: { path: join(test.cwd, "a.txt"), firstLine: 1, lastLine: 3, totalLines: 3 },
    });
  });

  it("reads a window with offset and limit and says how many lines there are", async () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n");
    await writeFile(join(test.cwd, "a.txt"), lines);
    const result = await runTool(readTool, { file_path: "a.txt", offset: 4, limit: 2 }, test.context);
    expect(result.output).toBe(
      "     4|line 4\n     5|line 5\n(showing lines 4-5 of 10; use offset to read more)",
    );
  });

  it("cuts long lines by code points without splitting an emoji", async () => {
    const line = `${"x".repeat(1999)}😀😀😀`;
    await writeFile(join(test.cwd, "long.txt"), `${line}\nshort\n`);
    const result = await runTool(readTool, { file_path: "long.txt" }, test.context);
    const [first, second, note] = result.output.split("\n");
    expect(first).toBe(`     1|${"x".repeat(1999)}😀 … [line cut]`);
    expect(second).toBe("     2|short");
    expect(note).toBe("(1 lines longer than 2000 characters were cut)");
  });

  it("refuses binary files with a clear message", async () => {
    await writeFile(join(test.cwd, "bin.dat"), Buffer.from([1, 2, 0, 3]));
    const result = await runTool(readTool, { file_path: "bin.dat" }, test.context);
    expect(result).toEqual({
      output: "bin.dat looks like a binary file (4 B); it cannot be shown as text.",
      isError: true,
    });
  });

  it("reports missing files, directories, empty files and offsets past the end", async () => {
    await mkdir(join(test.cwd, "dir"));
    await writeFile(join(test.cwd, "empty.txt"), "");
    await writeFile(join(test.cwd, "two.txt"), "a\nb\n");
    expect(await runTool(readTool, { file_path: "nope.txt" }, test.context)).toEqual({
      output: "File not found: nope.txt",
      isError: true,
    });
    expect((await runTool(readTool, { file_path: "dir" }, test.context)).output).toBe(
      "dir is a directory; use list_dir to see its entries.",
    );
    expect((await runTool(readTool, { file_path: "empty.txt" }, test.context)).output).toBe(
      "empty.txt is empty.",
    );
    expect(await runTool(readTool, { file_path: "two.txt", offset: 5 }, test.context)).toEqual({
      output: "offset 5 is past the end of two.txt (2 lines).",
      isError: true,
    });
  });

  it("returns validation problems and sandbox refusals as tool errors", async () => {
    expect(await runTool(readTool, { file_path: "a", offset: 0 }, test.context)).toEqual({
      output: "Invalid arguments for read:\n- offset: Too small: expected number to be >=1",
      isError: true,
    });
    const outside = await runTool(readTool, { file_path: "../../etc/passwd" }, test.context);
    expect(outside.isError).toBe(true);
    expect(outside.output).toContain("outside the workspace");
  });

  it("lists its path for permission checks", () => {
    expect(readTool.pathsOf({ file_path: "a.txt" }, test.context)).toEqual([
      { path: "a.txt", access: "read" },
    ]);
    expect(readTool.mutates).toBe(false);
  });
});

describe("readLineWindow", () => {
  it("stops after the window when the file is too large to count", async () => {
    const path = join(test.cwd, "big.log");
    await writeFile(path, Array.from({ length: 50_000 }, (_, index) => `entry ${index + 1}`).join("\n"));
    const window = await readLineWindow(path, {
      offset: 2,
      limit: 2,
      maxLineChars: 100,
      countLinesUpToBytes: 1000,
    });
    expect(window).toEqual({ lines: ["entry 2", "entry 3"], totalLines: undefined, cutLines: 0 });
    const counted = await readLineWindow(path, {
      offset: 49_999,
      limit: 5,
      maxLineChars: 100,
      countLinesUpToBytes: 1e9,
    });
    expect(counted).toEqual({ lines: ["entry 49999", "entry 50000"], totalLines: 50_000, cutLines: 0 });
  });

  it("keeps only the first characters of a giant line", async () => {
    const path = join(test.cwd, "minified.js");
    await writeFile(path, `${"ab".repeat(200_000)}\nnext`);
    const window = await readLineWindow(path, {
      offset: 1,
      limit: 2,
      maxLineChars: 10,
      countLinesUpToBytes: 1e9,
    });
    expect(window).toEqual({ lines: ["ababababab … [line cut]", "next"], totalLines: 2, cutLines: 1 });
  });
});
