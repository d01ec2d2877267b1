import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectMemoryDir } from "../../memory/memory-paths.js";
import { MEMORY_INDEX_HEADER } from "../../memory/memory-store.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { memoryReadTool } from "./memory-read-tool.js";
import { memoryWriteTool } from "./memory-write-tool.js";

let test: TestContext;
let dir: string;
beforeEach(async () => {
  test = await createTestContext();
  dir = await projectMemoryDir(test.cwd, test.context.dirs);
});
afterEach(async () => {
  await test.cleanup();
});

describe("memory_write / memory_read", () => {
  it("reads an empty memory, writes topics and reads them back", async () => {
    expect(await runTool(memoryReadTool, {}, test.context)).toEqual({
      output: "No project memories yet.\n\nAvailable topics: (none)",
    });

    expect(
      await runTool(
        memoryWriteTool,
        { topic: "Build Commands", content: "pnpm build, then pnpm test" },
        test.context,
      ),
    ).toEqual({
      output: "Created memory topic 'build-commands' (1 line); the index lists it.",
      metadata: { path: join(dir, "build-commands.md"), topic: "build-commands", lines: 1 },
    });
    const appended = await runTool(
      memoryWriteTool,
      { topic: "build-commands", content: "lint: pnpm lint" },
      test.context,
    );
    expect(appended.output).toBe("Appended to memory topic 'build-commands' (2 lines); the index lists it.");
    const replaced = await runTool(
      memoryWriteTool,
      { topic: "style", content: "tabs", mode: "replace" },
      test.context,
    );
    expect(replaced.output).toBe("Created memory topic 'style' (1 line); the index lists it.");

    expect(await runTool(memoryReadTool, {}, test.context)).toEqual({
      output: `${MEMORY_INDEX_HEADER}- [build-commands](build-commands.md): pnpm build, then pnpm test\n- [style](style.md): tabs\n\nAvailable topics: build-commands, style`,
    });
    expect(await runTool(memoryReadTool, { topic: "build-commands" }, test.context)).toEqual({
      output: "pnpm build, then pnpm test\nlint: pnpm lint\n",
    });
    expect(await runTool(memoryReadTool, { topic: "deploy" }, test.context)).toEqual({
      output: `Topic 'deploy' not found at ${join(dir, "deploy.md")}. Available topics: build-commands, style`,
      isError: true,
    });
  });

  it("refuses content that looks like a secret and writes nothing", async () => {
    const result = await runTool(
      memoryWriteTool,
      { topic: "keys", content: "OpenAI key: sk-proj-abcdefghijklmnopqrstuvwxyz0123" },
      test.context,
    );
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(
      /^memory_write refused: the content looks like it contains an Anthropic\/OpenAI-style API key\. /,
    );
    expect(result.output).not.toContain("sk-proj");
    await expect(readFile(join(dir, "keys.md"), "utf8")).rejects.toThrow("ENOENT");
  });

  it("refuses the reserved index name", async () => {
    const result = await runTool(memoryWriteTool, { topic: "MEMORY", content: "x" }, test.context);
    expect(result).toEqual({
      output: "The topic name 'memory' is reserved for the index (MEMORY.md); pick a specific topic.",
      isError: true,
    });
  });

  it("declares its kinds: read is read-only, write mutates", () => {
    expect([memoryReadTool.kind, memoryReadTool.mutates]).toEqual(["read", false]);
    expect([memoryWriteTool.kind, memoryWriteTool.mutates]).toEqual(["memory", true]);
  });
});
