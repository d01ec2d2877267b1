import { accessSync, constants, lstatSync, realpathSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isWithin } from "./resolve-real-path.js";

/**
 * What bubblewrap mounts so a `workspace-write` command cannot change the agent's control files
 * (see control-files.ts) inside a writable root. Each existing `.nyzhi/`, `.claude/` and
 * `.mcp.json` at a root, and each existing hook or MCP server script inside a root, is bound
 * read-only (at its real path) over the writable root: the command can read it but neither write, delete nor
 * rename it (a mount point cannot be moved). `.claude/` is bound whole, since renaming a
 * directory that merely holds a bound file would let the command put a new one in its place.
 *
 * A missing `.nyzhi/` or `.claude/` gets an empty read-only tmpfs, so a command cannot create
 * one either. Bubblewrap creates the mount point, an empty directory, in the real workspace; it
 * is removed again (`rmdir`, which only removes an empty directory) when the last command of this
 * process using it ends, so no empty `.nyzhi/` is left to change project discovery or where
 * `nyz config set` writes. A missing `.mcp.json` is not covered: its placeholder would be a file.
 */
export interface ControlFileMounts {
  /** Existing paths to bind read-only (`--ro-bind path path`). */
  readOnly: string[];
  /** Missing directories to cover with an empty read-only tmpfs. */
  placeholders: string[];
  /** Call once the command has ended: removes placeholders no other command still uses. */
  release(): void;
}

/** Placeholder directories of running commands → how many use each. */
const placeholderUsers = new Map<string, number>();

function isWritable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** `dangling`: a symlink to nothing, which can be neither bound nor covered. */
function stateOf(path: string): "present" | "missing" | "dangling" {
  if (statSync(path, { throwIfNoEntry: false }) !== undefined) return "present";
  return lstatSync(path, { throwIfNoEntry: false }) === undefined ? "missing" : "dangling";
}

/**
 * Plans the mounts for one command over `roots` (real paths) and takes a hold on its placeholder
 * directories; `files` are further control files (absolute), bound when they exist inside a root.
 * Synchronous: a few `stat` calls per root, made right before the command starts.
 */
export function claimControlFileMounts(
  roots: readonly string[],
  files: readonly string[],
): ControlFileMounts {
  const readOnly: string[] = [];
  const placeholders: string[] = [];
  // Bound at its real path (bubblewrap cannot mount over a symlink), and only inside a root:
  // everything else is read-only already.
  const bind = (path: string) => {
    const real = realPathOf(path);
    if (real !== undefined && roots.some((root) => isWithin(real, root)) && !readOnly.includes(real)) {
      readOnly.push(real);
    }
  };
  for (const root of roots) {
    // A root we cannot write in gets no placeholder: bubblewrap could not make its mount point
    // (and the command could not create the directory either).
    const writable = isWritable(root);
    for (const directory of [join(root, ".nyzhi"), join(root, ".claude")]) {
      const state = placeholderUsers.has(directory) ? "missing" : stateOf(directory);
      if (state === "present") bind(directory);
      if (state !== "missing" || !writable) continue;
      placeholderUsers.set(directory, (placeholderUsers.get(directory) ?? 0) + 1);
      placeholders.push(directory);
    }
    const mcpJson = join(root, ".mcp.json");
    if (stateOf(mcpJson) === "present") bind(mcpJson);
  }
  for (const file of files) {
    const real = realPathOf(file);
    if (real !== undefined && ![...readOnly, ...placeholders].some((path) => isWithin(real, path)))
      bind(file);
  }
  let released = false;
  return {
    readOnly,
    placeholders,
    release() {
      if (released) return;
      released = true;
      for (const directory of placeholders) releasePlaceholder(directory);
    },
  };
}

function releasePlaceholder(directory: string): void {
  const users = (placeholderUsers.get(directory) ?? 1) - 1;
  if (users > 0) {
    placeholderUsers.set(directory, users);
    return;
  }
  placeholderUsers.delete(directory);
  try {
    rmdirSync(directory);
  } catch {
    // ENOENT: bubblewrap never got to create it; ENOTEMPTY: someone outside the sandbox has
    // since made it a real directory with content, which is theirs to keep.
  }
}

function realPathOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
