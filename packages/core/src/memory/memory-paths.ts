import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { NyzhiDirs } from "@nyzhi/config";

/** The index file of a memory folder, and the user's own memory file. */
export const MEMORY_INDEX_FILE = "MEMORY.md";

/** The user's memory: `<config dir>/MEMORY.md`. Written by the user only; the agent reads it. */
export function userMemoryPath(dirs: NyzhiDirs): string {
  return join(dirs.config, MEMORY_INDEX_FILE);
}

/**
 * The 16-hex-digit key of a project: the first 8 bytes of the SHA-256 of the project root's real
 * path, so a symlinked checkout and its target share one memory.
 */
export async function projectMemoryKey(root: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(root);
  } catch {
    // A root that does not exist (yet) still gets a stable key from its absolute path.
    real = resolve(root);
  }
  return createHash("sha256").update(real).digest("hex").slice(0, 16);
}

/** The project's memory folder: `<dirs.memory>/<projectMemoryKey(root)>/`. */
export async function projectMemoryDir(root: string, dirs: NyzhiDirs): Promise<string> {
  return join(dirs.memory, await projectMemoryKey(root));
}
