import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { globTool } from "./glob-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
  for (const path of [
    "src/a.ts",
    "src/b.tsx",
    "src/sub/c.ts",
    "top.ts",
    "node_modules/x/y.ts",
    ".github/ci.yml",
    "dist/out.ts",
  ]) {
    await mkdir(join(test.cwd, path, ".."), { recursive: true });
    await writeFile(join(test.cwd, path), "");
  }
  await writeFile(join(test.cwd, ".gitignore"), "dist\n");
});
afterEach(async () => {
  await test.cleanup();
});

describe("glob", () => {
  it("matches files only, sorted, skipping node_modules and ignored files", async () => {
    expect((await runTool(globTool, { pattern: "**/*.ts" }, test.context)).output).toBe(
      "src/a.ts\nsrc/sub/c.ts\ntop.ts",
    );
    expect((await runTool(globTool, { pattern: "*.{ts,tsx}", path: "src" }, test.context)).output).toBe(
      "src/a.ts\nsrc/b.tsx\nsrc/sub/c.ts",
    );
    expect((await runTool(globTool, { pattern: "src/*.ts" }, test.context)).output).toBe("src/a.ts");
    expect((await runTool(globTool, { pattern: ".github/*.yml" }, test.context)).output).toBe(
      ".github/ci.yml",
    );
    expect((await runTool(globTool, { pattern: "*.rs" }, test.context)).output).toBe(
      "No matching files found",
    );
  });
});
