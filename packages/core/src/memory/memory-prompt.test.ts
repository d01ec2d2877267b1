import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type NyzhiDirs, resolveDirs } from "@nyzhi/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assembleSystemPrompt } from "../agent-loop/system-prompt.js";
import { projectMemoryDir, userMemoryPath } from "./memory-paths.js";
import {
  AUTO_MEMORY_INSTRUCTIONS,
  loadMemoryForPrompt,
  memoryPromptFragment,
  projectMemoryExcerpt,
} from "./memory-prompt.js";
import { writeMemoryTopic } from "./memory-store.js";

let temp: string;
let dirs: NyzhiDirs;
let root: string;
beforeEach(async () => {
  temp = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-memory-prompt-")));
  dirs = resolveDirs({ NYZHI_HOME: join(temp, "home") });
  root = join(temp, "project");
  await mkdir(root);
});
afterEach(async () => {
  await rm(temp, { recursive: true, force: true });
});

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

async function writeUserMemory(text: string) {
  await mkdir(dirs.config, { recursive: true });
  await writeFile(userMemoryPath(dirs), text);
}

async function writeProjectIndex(text: string) {
  const dir = await projectMemoryDir(root, dirs);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "MEMORY.md"), text);
}

describe("loadMemoryForPrompt", () => {
  it("is empty when there is no memory (or only blank files)", async () => {
    expect(await loadMemoryForPrompt(root, dirs)).toBe("");
    await writeUserMemory("\n\n  \n");
    expect(await loadMemoryForPrompt(root, dirs)).toBe("");
  });

  it("recalls the user memory and the project index under their headings", async () => {
    await writeUserMemory("- prefers tabs\n\n");
    await writeMemoryTopic(await projectMemoryDir(root, dirs), "build", "pnpm build", "append");
    expect(await loadMemoryForPrompt(root, dirs)).toBe(
      "# Recalled Memories\n\n## User Memory\n- prefers tabs\n\n## Project Memory\nAuto-managed memory index.\n\n### Topics\n- [build](build.md): pnpm build",
    );
  });

  it("caps the user memory at 100 lines and everything at 200", async () => {
    await writeUserMemory(numbered("user", 150).join("\n"));
    await writeProjectIndex(numbered("project", 150).join("\n"));
    const text = await loadMemoryForPrompt(root, dirs);
    expect(text).toBe(
      [
        "# Recalled Memories",
        "",
        "## User Memory",
        ...numbered("user", 100),
        "… (50 more lines not shown (the user's MEMORY.md))",
        "",
        "## Project Memory",
        ...numbered("project", 100),
        "… (50 more lines not shown; memory_read shows the full index)",
      ].join("\n"),
    );
  });

  it("gives the project the lines the user memory leaves", async () => {
    await writeUserMemory(numbered("user", 30).join("\n"));
    await writeProjectIndex(numbered("project", 180).join("\n"));
    const lines = (await loadMemoryForPrompt(root, dirs)).split("\n");
    expect(lines.filter((line) => line.startsWith("project "))).toHaveLength(170);
    expect(lines.at(-1)).toBe("… (10 more lines not shown; memory_read shows the full index)");
  });
});

describe("memoryPromptFragment", () => {
  it("recalled memories then the auto-memory instructions, in the memory slot", async () => {
    await writeUserMemory("- prefers tabs\n");
    const fragment = await memoryPromptFragment({ root, dirs, autoMemory: true });
    expect(fragment).toEqual({
      kind: "memory",
      text: `# Recalled Memories\n\n## User Memory\n- prefers tabs\n\n${AUTO_MEMORY_INSTRUCTIONS}`,
    });
  });

  it("shows the instructions even with no memories yet", async () => {
    expect(await memoryPromptFragment({ root, dirs, autoMemory: true })).toEqual({
      kind: "memory",
      text: AUTO_MEMORY_INSTRUCTIONS,
    });
  });

  it("adds nothing at all to the prompt when auto_memory is off", async () => {
    await writeUserMemory("- prefers tabs\n");
    const fragment = await memoryPromptFragment({ root, dirs, autoMemory: false });
    expect(fragment).toEqual({ kind: "memory", text: "" });
    expect(assembleSystemPrompt([{ kind: "persona", text: "You are Nizzy." }, fragment])).toEqual([
      { text: "You are Nizzy.", cache: true },
    ]);
  });
});

describe("projectMemoryExcerpt", () => {
  it("returns the first lines of the project index, or nothing", async () => {
    expect(await projectMemoryExcerpt(root, dirs, 20)).toBe("");
    await writeProjectIndex(numbered("project", 50).join("\n"));
    expect(await projectMemoryExcerpt(root, dirs, 3)).toBe("project 1\nproject 2\nproject 3");
  });
});
