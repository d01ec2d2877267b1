import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

async function kindOf(path: string): Promise<"dir" | "other" | undefined> {
  try {
    return (await stat(path)).isDirectory() ? "dir" : "other";
  } catch {
    return undefined;
  }
}

/** Which marker made a directory the project root. */
export type ProjectMarker = ".nyzhi" | ".claude" | ".git";

/**
 * The marker in `directory` that makes it a project root, checked in order: a `.nyzhi/`
 * directory, a `.claude/` directory, a `.git` of any kind (a worktree's `.git` is a file).
 */
export async function projectMarkerIn(directory: string): Promise<ProjectMarker | undefined> {
  if ((await kindOf(join(directory, ".nyzhi"))) === "dir") return ".nyzhi";
  if ((await kindOf(join(directory, ".claude"))) === "dir") return ".claude";
  if ((await kindOf(join(directory, ".git"))) !== undefined) return ".git";
  return undefined;
}

/**
 * Walks up from `start` to the first directory with a project marker (`projectMarkerIn`).
 * When no ancestor has one, the project root is `start` itself (made absolute).
 */
export async function findProjectRoot(start: string): Promise<string> {
  const origin = resolve(start);
  let current = origin;
  for (;;) {
    if (await projectMarkerIn(current)) return current;
    const parent = dirname(current);
    if (parent === current) return origin;
    current = parent;
  }
}
