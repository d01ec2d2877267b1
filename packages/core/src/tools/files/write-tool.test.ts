import { chmod, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { writeTool } from "./write-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
});
afterEach(async () => {
  await test.cleanup();
});

describe("write", () => {
  it("creates parent directories and reports bytes and a diff", async () => {
    const result = await runTool(
      writeTool,
      { file_path: "deep/dir/a.txt", content: "héllo\n" },
      test.context,
    );
    expect(result.output).toBe("Wrote 7 bytes to deep/dir/a.txt (new file)\n@@ -0,0 +1,1 @@\n+héllo");
    expect(await readFile(join(test.cwd, "deep/dir/a.txt"), "utf8")).toBe("héllo\n");
  });

  it("overwrites, shows the change, keeps the file mode and is tracked for undo", async () => {
    const path = join(test.cwd, "run.sh");
    await writeFile(path, "echo one\necho two\n");
    await chmod(path, 0o755);
    test.tracker.checkpoint("t1");
    const result = await runTool(
      writeTool,
      { file_path: "run.sh", content: "echo one\necho 2\n" },
      test.context,
    );
    expect(result.output).toBe("Wrote 16 bytes to run.sh\n@@ -1,2 +1,2 @@\n echo one\n-echo two\n+echo 2");
    expect((await stat(path)).mode & 0o777).toBe(0o755);
    await test.tracker.undoLastTurn();
    expect(await readFile(path, "utf8")).toBe("echo one\necho two\n");
  });

  it("requires content", async () => {
    const result = await runTool(writeTool, { file_path: "a.txt" }, test.context);
    expect(result).toEqual({
      output: "Invalid arguments for write:\n- content: Invalid input: expected string, received undefined",
      isError: true,
    });
  });
});
