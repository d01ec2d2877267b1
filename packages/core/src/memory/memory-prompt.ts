import { join } from "node:path";
import type { NyzhiDirs } from "@nyzhi/config";
import type { PromptFragment } from "../agent-loop/system-prompt.js";
import { nestUnderHeading } from "../briefing/nest-under-heading.js";
import { MEMORY_INDEX_FILE, projectMemoryDir, userMemoryPath } from "./memory-paths.js";
import { readIfExists } from "./memory-store.js";

/** Cap on the memory lines injected into the system prompt (user and project together). */
export const MAX_INJECTION_LINES = 200;
/** Cap on the user memory's share of the injection, in lines. */
export const MAX_USER_MEMORY_LINES = 100;

/** Tells the model it has memory and how to use it; shown whenever `memory.auto_memory` is on. */
export const AUTO_MEMORY_INSTRUCTIONS = `# Auto-Memory (ACTIVE)

You have a persistent memory for this project that later sessions see (its index is recalled above when it has entries).
- \`memory_read\` without a topic shows the index and the available topics; with a topic, that topic's notes.
- \`memory_write\` saves durable knowledge under a topic (its schema says how). Good topics: build-and-test, architecture, conventions, pitfalls, user-preferences.
- Save what a future session would otherwise rediscover the hard way: commands that work, where things live, decisions and their reasons, mistakes and their fixes, preferences the user stated. Do not save task progress, guesses, or what the project rules already say.
- Keep entries short, one fact per line, and update an existing topic rather than starting a near-duplicate; the index (MEMORY.md) should stay under 50 lines.
- Never store secrets (API keys, tokens, passwords, private keys); memory_write refuses them. Write where a secret lives instead (e.g. "the key is in $STRIPE_KEY").
- The user's own memory file is read-only to you.`;

export interface MemoryPromptOptions {
  /** The project root (its real path keys the project memory). */
  root: string;
  dirs: NyzhiDirs;
  /** The resolved `memory.auto_memory`. False: no memory and no instructions at all. */
  autoMemory: boolean;
}

/**
 * The `# Recalled Memories` block: the user's MEMORY.md (first 100 lines) then the project index
 * (lines up to 200 in all), each under its own heading; "" when neither has any content.
 */
export async function loadMemoryForPrompt(root: string, dirs: NyzhiDirs): Promise<string> {
  const user = contentLines(await readIfExists(userMemoryPath(dirs)));
  // The index's own `# Project Memory` title gives way to this section's heading.
  const project = contentLines(
    nestUnderHeading(
      (await readIfExists(join(await projectMemoryDir(root, dirs), MEMORY_INDEX_FILE))) ?? "",
      2,
    ),
  );
  const sections: string[] = [];
  let used = 0;
  if (user.length > 0) {
    const shown = capLines(user, MAX_USER_MEMORY_LINES, "not shown (the user's MEMORY.md)");
    used = Math.min(user.length, MAX_USER_MEMORY_LINES);
    sections.push(`## User Memory\n${shown}`);
  }
  if (project.length > 0) {
    sections.push(
      `## Project Memory\n${capLines(project, MAX_INJECTION_LINES - used, "not shown; memory_read shows the full index")}`,
    );
  }
  return sections.length > 0 ? `# Recalled Memories\n\n${sections.join("\n\n")}` : "";
}

/**
 * The memory fragment of the system prompt: recalled memories (when there are any) and the
 * auto-memory instructions. With `autoMemory` false the fragment is empty, so nothing is shown.
 */
export async function memoryPromptFragment(options: MemoryPromptOptions): Promise<PromptFragment> {
  if (!options.autoMemory) return { kind: "memory", text: "" };
  const recalled = await loadMemoryForPrompt(options.root, options.dirs);
  return {
    kind: "memory",
    text: recalled ? `${recalled}\n\n${AUTO_MEMORY_INSTRUCTIONS}` : AUTO_MEMORY_INSTRUCTIONS,
  };
}

/** The first `lines` lines of the project memory index, for a subagent's briefing; "" when none. */
export async function projectMemoryExcerpt(root: string, dirs: NyzhiDirs, lines: number): Promise<string> {
  const project = contentLines(
    await readIfExists(join(await projectMemoryDir(root, dirs), MEMORY_INDEX_FILE)),
  );
  return project.slice(0, Math.max(0, lines)).join("\n");
}

/** The lines of a file without trailing blank lines; [] for a missing or blank file. */
function contentLines(text: string | undefined): string[] {
  if (!text?.trim()) return [];
  return text.replace(/\s+$/, "").split("\n");
}

function capLines(lines: readonly string[], cap: number, where: string): string {
  if (lines.length <= cap) return lines.join("\n");
  const omitted = lines.length - cap;
  return [...lines.slice(0, cap), `… (${omitted} more lines ${where})`].join("\n");
}
