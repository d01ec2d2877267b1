import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendNotepadEntry } from "../planning/notepad.js";
import { latestWisdom } from "./latest-wisdom.js";
import { renderChildSystemPrompt } from "./render-child-system-prompt.js";

describe("renderChildSystemPrompt", () => {
  it("appends the briefing and only wisdom with more than 3 lines", () => {
    expect(renderChildSystemPrompt({ rolePrompt: "Role.", briefing: "" })).toBe("Role.");
    expect(renderChildSystemPrompt({ rolePrompt: "Role.", briefing: "## Active Todos\n- [1] x" })).toBe(
      "Role.\n\n# Context Briefing (from parent)\n## Active Todos\n- [1] x",
    );
    expect(renderChildSystemPrompt({ rolePrompt: "Role.", briefing: "", wisdom: "a\nb\nc" })).toBe("Role.");
    expect(renderChildSystemPrompt({ rolePrompt: "Role.", briefing: "B", wisdom: "a\nb\nc\nd" })).toBe(
      "Role.\n\n# Context Briefing (from parent)\nB\n\n# Accumulated Wisdom (from prior work)\na\nb\nc\nd",
    );
  });
});

describe("latestWisdom", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "nyzhi-wisdom-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("is undefined without notepads", async () => {
    expect(await latestWisdom(root)).toBeUndefined();
  });

  it("reads the newest notepad, not the alphabetically last, without empty sections", async () => {
    const directory = join(root, ".nyzhi/notepads");
    await mkdir(directory, { recursive: true });
    const now = new Date("2025-01-02T03:04:05Z");
    await appendNotepadEntry(join(directory, "alpha.md"), "alpha", "learnings", "Use pnpm, not npm.", now);
    await appendNotepadEntry(join(directory, "zulu.md"), "zulu", "issues", "old", now);
    await utimes(join(directory, "zulu.md"), new Date(2020, 0, 1), new Date(2020, 0, 1));
    await utimes(join(directory, "alpha.md"), new Date(2024, 0, 1), new Date(2024, 0, 1));
    expect(await latestWisdom(root)).toBe(
      "# Notepad: alpha\n\n## Learnings\n\n### 2025-01-02T03:04:05Z\nUse pnpm, not npm.",
    );
  });

  it("is undefined when the newest notepad has no entries", async () => {
    await mkdir(join(root, ".nyzhi/notepads"), { recursive: true });
    await writeFile(
      join(root, ".nyzhi/notepads/empty.md"),
      "# Notepad: empty\n\n## Learnings\n\n## Issues\n",
    );
    expect(await latestWisdom(root)).toBeUndefined();
  });
});
