import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parsePatch } from "../../../engines/apply-patch/parse-patch.js";
import { createTestContext, type TestContext } from "../../testing/create-test-context.js";
import { runTool } from "../../testing/run-tool.js";
import { applyPatchTool } from "./apply-patch-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  await writeFile(
    join(test.cwd, "main.py"),
    "def greet():\n    print('hi')\n\ndef main():\n    greet()\n    return 0\n",
  );
  await writeFile(join(test.cwd, "old.txt"), "obsolete\n");
});
afterEach(async () => {
  await test.cleanup();
});

const read = (name: string) => readFile(join(test.cwd, name), "utf8");
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("apply_patch", () => {
  it("adds, deletes and updates files with context", async () => {
    const result = await runTool(
      applyPatchTool,
      {
        patch: patch(
          "*** Add File: src/new.txt",
          "+first",
          "+second",
          "*** Delete File: old.txt",
          "*** Update File: main.py",
          "@@ def main():",
          "     greet()",
          "-    return 0",
          "+    return 1",
        ),
      },
      test.context,
    );
    expect(result.output).toBe("Success. Updated the following files:\nA src/new.txt\nD old.txt\nM main.py");
    expect(await read("src/new.txt")).toBe("first\nsecond\n");
    expect(existsSync(join(test.cwd, "old.txt"))).toBe(false);
    expect(await read("main.py")).toBe(
      "def greet():\n    print('hi')\n\ndef main():\n    greet()\n    return 1\n",
    );
  });

  it("moves a file while updating it, and undo brings it back", async () => {
    test.tracker.checkpoint("t1");
    const result = await runTool(
      applyPatchTool,
      {
        patch: patch(
          "*** Update File: main.py",
          "*** Move to: app/main.py",
          "@@",
          "-    print('hi')",
          "+    print('hello')",
        ),
      },
      test.context,
    );
    expect(result.output).toBe("Success. Updated the following files:\nR main.py -> app/main.py");
    expect(existsSync(join(test.cwd, "main.py"))).toBe(false);
    expect(await read("app/main.py")).toContain("print('hello')");
    await test.tracker.undoLastTurn();
    expect(await read("main.py")).toContain("print('hi')");
    expect(existsSync(join(test.cwd, "app/main.py"))).toBe(false);
  });

  it("leaves every file untouched when a later hunk's context is wrong", async () => {
    const result = await runTool(
      applyPatchTool,
      {
        patch: patch(
          "*** Add File: created.txt",
          "+x",
          "*** Delete File: old.txt",
          "*** Update File: main.py",
          "@@",
          " def main():",
          "-    this line is not there",
          "+    replaced",
        ),
      },
      test.context,
    );
    expect(result).toEqual({
      output: "Failed to find expected lines in main.py:\ndef main():\n    this line is not there",
      isError: true,
    });
    expect(existsSync(join(test.cwd, "created.txt"))).toBe(false);
    expect(await read("old.txt")).toBe("obsolete\n");
    expect(await read("main.py")).toContain("return 0");
    expect(test.tracker.changes()).toEqual([]);
  });

  it("reports a missing @@ context line", async () => {
    const result = await runTool(
      applyPatchTool,
      { patch: patch("*** Update File: main.py", "@@ def nowhere():", "-    greet()", "+    greet(1)") },
      test.context,
    );
    expect(result).toEqual({ output: "Failed to find context 'def nowhere():' in main.py", isError: true });
  });

  it("keeps a missing final newline missing, and CRLF line endings", async () => {
    await writeFile(join(test.cwd, "no-eol.txt"), "a\nb");
    await writeFile(join(test.cwd, "crlf.txt"), "one\r\ntwo\r\n");
    await runTool(
      applyPatchTool,
      {
        patch: patch(
          "*** Update File: no-eol.txt",
          " a",
          "-b",
          "+c",
          "*** End of File",
          "*** Update File: crlf.txt",
          "-two",
          "+2",
        ),
      },
      test.context,
    );
    expect(await read("no-eol.txt")).toBe("a\nc");
    expect(await read("crlf.txt")).toBe("one\r\n2\r\n");
  });

  it("tolerates trailing whitespace differences in context", async () => {
    await writeFile(join(test.cwd, "ws.txt"), "alpha   \nbeta\n");
    const result = await runTool(
      applyPatchTool,
      { patch: patch("*** Update File: ws.txt", " alpha", "-beta", "+BETA") },
      test.context,
    );
    expect(result.isError).toBeUndefined();
    expect(await read("ws.txt")).toBe("alpha   \nBETA\n");
  });

  it("rejects malformed patches and unknown targets", async () => {
    expect((await runTool(applyPatchTool, { patch: "*** Update File: x" }, test.context)).output).toBe(
      "The first line of the patch must be '*** Begin Patch'",
    );
    expect(
      (await runTool(applyPatchTool, { patch: patch("*** Frobnicate: x") }, test.context)).output,
    ).toContain("is not a valid hunk header");
    expect(
      (await runTool(applyPatchTool, { patch: patch("*** Delete File: ghost.txt") }, test.context)).output,
    ).toBe("Cannot delete ghost.txt: the file does not exist");
    expect(
      (await runTool(applyPatchTool, { patch: patch("*** Add File: ../escape.txt", "+x") }, test.context))
        .output,
    ).toContain("outside the workspace");
  });

  it("lists every path, including move destinations, for permission checks", () => {
    const input = {
      patch: patch(
        "*** Add File: a.txt",
        "+x",
        "*** Update File: b.txt",
        "*** Move to: c.txt",
        "@@",
        "-y",
        "+z",
      ),
    };
    expect(applyPatchTool.pathsOf(input, test.context)).toEqual([
      { path: "a.txt", access: "write" },
      { path: "b.txt", access: "write" },
      { path: "c.txt", access: "write" },
    ]);
  });
});

describe("parsePatch", () => {
  it("accepts a heredoc wrapper and an update whose first chunk has no @@", () => {
    const hunks = parsePatch(
      ["<<'EOF'", "*** Begin Patch", "*** Update File: a", " x", "-y", "+z", "*** End Patch", "EOF"].join(
        "\n",
      ),
    );
    expect(hunks).toEqual([
      {
        type: "update",
        path: "a",
        moveTo: undefined,
        chunks: [
          {
            changeContext: undefined,
            oldLines: ["x", "y"],
            newLines: ["x", "z"],
            newLineSources: [0, undefined],
            isEndOfFile: false,
          },
        ],
      },
    ]);
  });
});
