import { readFile, stat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import { writeFileAtomic } from "@nyzhi/config";
import { ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";

/** Bytes inspected when deciding whether a file is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** True when `bytes` has a NUL byte in its first 8 KiB (the usual binary heuristic). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** How a path is shown to the model: relative to the working directory when inside it, else absolute. */
export function displayPath(context: ToolContext, absolutePath: string): string {
  const fromRoot = relative(context.cwd, absolutePath);
  if (fromRoot === "") return ".";
  if (fromRoot.startsWith(`..${sep}`) || fromRoot === ".." || isAbsolute(fromRoot)) return absolutePath;
  return fromRoot.split(sep).join("/");
}

/** Resolves a path argument through the sandbox guard (never use a raw argument on disk). */
export function resolvePath(context: ToolContext, path: string, access: "read" | "write"): Promise<string> {
  return context.paths.resolve(path, access);
}

/** Reads a text file for editing; a missing file becomes a clear tool error. */
export async function readTextForEdit(context: ToolContext, absolutePath: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(absolutePath);
  } catch (error) {
    if (isNotFound(error)) throw new ToolError(`File not found: ${displayPath(context, absolutePath)}`);
    if ((error as NodeJS.ErrnoException).code === "EISDIR") {
      throw new ToolError(`${displayPath(context, absolutePath)} is a directory, not a file`);
    }
    throw error;
  }
  if (looksBinary(bytes))
    throw new ToolError(
      `${displayPath(context, absolutePath)} is a binary file; it cannot be edited as text`,
    );
  return bytes.toString("utf8");
}

/** Writes atomically, keeping the existing file's permission bits (so scripts stay executable). */
export async function writeKeepingMode(absolutePath: string, data: string | Uint8Array): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(absolutePath)).mode & 0o7777;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  await writeFileAtomic(absolutePath, data, mode === undefined ? { fsync: false } : { mode, fsync: false });
}

/** Counts non-overlapping occurrences of `needle` in `haystack`. */
export function countOccurrences(haystack: string, needle: string): number {
  if (needle === "") return 0;
  let count = 0;
  let index = haystack.indexOf(needle);
  while (index !== -1) {
    count += 1;
    index = haystack.indexOf(needle, index + needle.length);
  }
  return count;
}

/** Formats a byte count for people: `512 B`, `1.5 KiB`, `3.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
