import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { ToolContext } from "../seam/tool-types.js";

/** Directories with more files than this are moved or copied without undo tracking. */
export const MAX_TRACKED_TREE_FILES = 2000;

/** Relative paths of every file (and symlink) under `directory`, or undefined when there are too many. */
export async function listTreeFiles(
  directory: string,
  limit = MAX_TRACKED_TREE_FILES,
): Promise<string[] | undefined> {
  const files: string[] = [];
  const pending = [directory];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else files.push(relative(directory, full));
      if (files.length > limit) return undefined;
    }
  }
  return files;
}

/**
 * Runs `change` between beforeChange and afterChange calls for every path, so the change tracker
 * records each file (and the turn can be undone).
 */
export async function trackPaths<T>(
  context: ToolContext,
  paths: string[],
  tool: string,
  change: () => Promise<T>,
): Promise<T> {
  for (const path of paths) await context.changes.beforeChange(path, tool);
  try {
    return await change();
  } finally {
    for (const path of paths) await context.changes.afterChange(path, tool);
  }
}
