import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendNotepadEntry, listNotepads } from "../../planning/notepad.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { runTool } from "../testing/run-tool.js";
import { notepadReadTool } from "./notepad-read-tool.js";
import { notepadWriteTool } from "./notepad-write-tool.js";
import { thinkTool } from "./think-tool.js";

let test: TestContext;
beforeEach(async () => {
  test = await createTestContext();
});
afterEach(async () => {
  await test.cleanup();
});

describe("notepad_write / notepad_read", () => {
  it("appends entries under their category in .nyzhi/notepads/<plan>.md", async () => {
    const file = join(test.cwd, ".nyzhi/notepads/auth.md");
    await appendNotepadEntry(file, "auth", "decisions", "Use JWT", new Date("2025-01-02T03:04:05.678Z"));
    await appendNotepadEntry(
      file,
      "auth",
      "learnings",
      "Tokens expire\nafter 1h",
      new Date("2025-01-02T04:00:00Z"),
    );
    await appendNotepadEntry(
      file,
      "auth",
      "decisions",
      "Refresh in background",
      new Date("2025-01-02T05:00:00Z"),
    );
    expect(await readFile(file, "utf8")).toBe(
      [
        "# Notepad: auth",
        "",
        "## Learnings",
        "",
        "### 2025-01-02T04:00:00Z",
        "Tokens expire",
        "after 1h",
        "",
        "## Decisions",
        "",
        "### 2025-01-02T03:04:05Z",
        "Use JWT",
        "",
        "### 2025-01-02T05:00:00Z",
        "Refresh in background",
        "",
        "## Issues",
        "",
      ].join("\n"),
    );
  });

  it("writes through the tool, accepts singular categories and reads back", async () => {
    const written = await runTool(
      notepadWriteTool,
      { plan: "auth", category: "issue", content: "Login flakes" },
      test.context,
    );
    expect(written.output).toBe("Added to issues in .nyzhi/notepads/auth.md");
    const read = await runTool(notepadReadTool, { plan: "auth" }, test.context);
    expect(read.output).toMatch(
      /^=== Notepad: auth ===\n# Notepad: auth\n[\s\S]*## Issues\n\n### .*\nLogin flakes$/,
    );
    expect((await runTool(notepadReadTool, {}, test.context)).output).toBe(
      "Notepads (newest first):\n- auth",
    );
    expect((await runTool(notepadReadTool, { plan: "other" }, test.context)).output).toBe(
      "No notepad found for plan 'other'",
    );
  });

  it("rejects unsafe plan names and unknown categories", async () => {
    expect(
      (await runTool(notepadWriteTool, { plan: "../x", category: "issues", content: "c" }, test.context))
        .output,
    ).toBe("Invalid plan name '../x': use letters, digits, '.', '_' and '-' only");
    expect(
      (await runTool(notepadWriteTool, { plan: "p", category: "gossip", content: "c" }, test.context)).output,
    ).toBe("Unknown category 'gossip': use learnings, decisions, issues");
    expect(await listNotepads(join(test.cwd, ".nyzhi/notepads"))).toEqual([]);
  });

  it("keeps every entry when writes race", async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        runTool(
          notepadWriteTool,
          { plan: "p", category: "learnings", content: `note ${index}` },
          test.context,
        ),
      ),
    );
    const text = await readFile(join(test.cwd, ".nyzhi/notepads/p.md"), "utf8");
    for (let index = 0; index < 10; index += 1) expect(text).toContain(`note ${index}\n`);
  });
});

describe("think", () => {
  it("echoes the thought and changes nothing", async () => {
    expect(await runTool(thinkTool, { thought: "first check the tests" }, test.context)).toEqual({
      output: "first check the tests",
    });
    expect(thinkTool.mutates).toBe(false);
  });
});
