import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { multiEditTool } from "./multi-edit-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  await writeFile(join(test.cwd, "a.txt"), "alpha\nbeta\n");
  await writeFile(join(test.cwd, "b.txt"), "gamma\ndelta\n");
});
afterEach(async () => {
  await test.cleanup();
});

const read = (name: string) => readFile(join(test.cwd, name), "utf8");

describe("multi_edit", () => {
  it("applies edits across files in order", async () => {
    const result = await runTool(
      multiEditTool,
      {
        edits: [
          { file_path: "a.txt", old_string: "alpha", new_string: "ALPHA" },
          { file_path: "b.txt", old_string: "delta", new_string: "DELTA" },
          { file_path: "a.txt", old_string: "ALPHA\nbeta", new_string: "ALPHA\nBETA" },
        ],
      },
      test.context,
    );
    expect(result.output).toBe("Applied 3 edits to 2 files:\na.txt (+2 -2)\nb.txt (+1 -1)");
    expect(await read("a.txt")).toBe("ALPHA\nBETA\n");
    expect(await read("b.txt")).toBe("gamma\nDELTA\n");
  });

  it("changes no file when any edit fails", async () => {
    const result = await runTool(
      multiEditTool,
      {
        edits: [
          { file_path: "a.txt", old_string: "alpha", new_string: "ALPHA" },
          { file_path: "b.txt", old_string: "missing", new_string: "x" },
        ],
      },
      test.context,
    );
    expect(result).toEqual({
      output: "edit 2 (b.txt): old_string not found in file; no file was changed",
      isError: true,
    });
    expect(await read("a.txt")).toBe("alpha\nbeta\n");
    expect(await read("b.txt")).toBe("gamma\ndelta\n");
    expect(test.tracker.changes()).toEqual([]);
  });

  it("names every file for permission checks and is undone as one turn", async () => {
    const input = {
      edits: [
        { file_path: "a.txt", old_string: "alpha", new_string: "A" },
        { file_path: "b.txt", old_string: "gamma", new_string: "G" },
      ],
    };
    expect(multiEditTool.pathsOf(input, test.context)).toEqual([
      { path: "a.txt", access: "write" },
      { path: "b.txt", access: "write" },
    ]);
    test.tracker.checkpoint("t1");
    await runTool(multiEditTool, input, test.context);
    await test.tracker.undoLastTurn();
    expect(await read("a.txt")).toBe("alpha\nbeta\n");
    expect(await read("b.txt")).toBe("gamma\ndelta\n");
  });

  it("rejects an empty edit list", async () => {
    expect((await runTool(multiEditTool, { edits: [] }, test.context)).isError).toBe(true);
  });
});
