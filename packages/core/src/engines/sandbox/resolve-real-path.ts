import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve, sep } from "node:path";
import { SandboxError } from "./sandbox-error.js";

/** Same limit as Linux's ELOOP: more symlinks than this in one resolution is a loop. */
const MAX_SYMLINK_HOPS = 40;

/**
 * Resolves `path` (relative to `cwd`) to the real absolute path it would touch: `..` normalised and
 * every symlink followed. For a path that does not exist yet, the nearest existing ancestor is
 * resolved and the rest appended; a dangling symlink is followed to where it points, so writing
 * "through" it is checked against its target, not its name.
 */
export async function resolveRealPath(path: string, cwd: string): Promise<string> {
  // Synchronous calls: a few metadata syscalls of microseconds each, where a round of thread-pool
  // calls per tool call costs tens of microseconds apiece.
  return resolveFrom(resolve(cwd, path), 0);
}

function resolveFrom(absolutePath: string, hops: number): string {
  if (hops > MAX_SYMLINK_HOPS) {
    throw new SandboxError(`Too many symbolic links while resolving ${absolutePath}.`);
  }
  try {
    return realpathSync.native(absolutePath);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  let isLink = false;
  try {
    isLink = lstatSync(absolutePath).isSymbolicLink();
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  if (isLink) {
    const target = readlinkSync(absolutePath);
    const next = isAbsolute(target) ? target : resolve(dirname(absolutePath), target);
    return resolveFrom(resolve(next), hops + 1);
  }
  const parent = dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  return resolve(resolveFrom(parent, hops), basename(absolutePath));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** True when `path` is `root` or inside it (both absolute and normalised). */
export function isWithin(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return path.startsWith(prefix);
}
