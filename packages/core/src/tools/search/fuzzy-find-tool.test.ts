import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { fuzzyFindTool, fuzzyScore } from "./fuzzy-find-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  for (const path of [
    "src/user/user-controller.ts",
    "src/utils/string.ts",
    "docs/usage.md",
    "src/user/user-service.ts",
  ]) {
    await mkdir(join(test.cwd, path, ".."), { recursive: true });
    await writeFile(join(test.cwd, path), "");
  }
});
afterEach(async () => {
  await test.cleanup();
});

describe("fuzzy_find", () => {
  it("ranks file-name matches first", async () => {
    const output = (await runTool(fuzzyFindTool, { query: "usercont" }, test.context)).output;
    expect(output.split("\n")[0]).toBe("src/user/user-controller.ts");
    expect((await runTool(fuzzyFindTool, { query: "qqq" }, test.context)).output).toBe(
      "No files match 'qqq'",
    );
  });

  it("requires the characters in order", () => {
    expect(fuzzyScore("src/a.ts", "ats")).toBeDefined();
    expect(fuzzyScore("src/a.ts", "sta")).toBeUndefined();
  });
});
