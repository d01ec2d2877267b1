import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

function kindOf(path: string): "dir" | "other" | undefined {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return undefined;
  return info.isDirectory() ? "dir" : "other";
}

/** Which marker made a directory the project root. */
export type ProjectMarker = ".nyzhi" | ".claude" | ".git";

/**
 * The marker in `directory` that makes it a project root, checked in order: a `.nyzhi/`
 * directory, a `.claude/` directory, a `.git` of any kind (a worktree's `.git` is a file).
 */
export function projectMarkerIn(directory: string): ProjectMarker | undefined {
  if (kindOf(join(directory, ".nyzhi")) === "dir") return ".nyzhi";
  if (kindOf(join(directory, ".claude")) === "dir") return ".claude";
  if (kindOf(join(directory, ".git")) !== undefined) return ".git";
  return undefined;
}

/**
 * Walks up from `start` to the first directory with a project marker (`projectMarkerIn`).
 * When no ancestor has one, the project root is `start` itself (made absolute). Synchronous:
 * it runs once at startup, before anything else can proceed, and is a few `stat` calls.
 */
export function findProjectRoot(start: string): string {
  const origin = resolve(start);
  let current = origin;
  for (;;) {
    if (projectMarkerIn(current)) return current;
    const parent = dirname(current);
    if (parent === current) return origin;
    current = parent;
  }
}
