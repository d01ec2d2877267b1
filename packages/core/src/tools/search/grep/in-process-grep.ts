import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { basename, isAbsolute, relative } from "node:path";
import { compileGlob } from "../glob-pattern.js";
import { walkFilesSync } from "../walk-files.js";
import type { GrepMatch, GrepSearchOptions, GrepSearchResult } from "./grep-search-types.js";
import { rustRegexToJs } from "./rust-regex.js";

/**
 * Limits of a search done in-process: past them, ripgrep (its own process, parallel, memory-mapped
 * files) is the faster tool, and the search is handed to it. Within them the whole search costs
 * less than starting one process.
 */
export interface InProcessLimits {
  /** Files and directories the walk may visit. */
  maxEntries: number;
  /** Bytes of file content it may read. */
  maxBytes: number;
}

export const IN_PROCESS_LIMITS: InProcessLimits = { maxEntries: 300, maxBytes: 1024 * 1024 };

/**
 * Folders found too large for an in-process search (bounded; a folder that grows past the limit
 * is met again and costs one more walk up to it).
 */
const tooLarge = new Set<string>();
const TOO_LARGE_REMEMBERED = 64;

/**
 * Searches a small folder or file synchronously, with exactly ripgrep's results: the same walk
 * (order, ignore files, skipped files), the pattern translated from Rust's regex syntax. Gives
 * undefined when it cannot promise that — the pattern is outside the translated subset, the tree
 * is over the limits, or a file is one ripgrep would decode differently (a byte-order mark, bytes
 * that are not UTF-8) — and the caller runs ripgrep instead.
 */
export function searchInProcess(
  options: GrepSearchOptions,
  limits: InProcessLimits = IN_PROCESS_LIMITS,
): GrepSearchResult | undefined {
  const regex = rustRegexToJs(options.pattern, options.caseInsensitive === true);
  if (!regex) return undefined;
  if (!options.targetIsFile && knownTooLarge(options.target)) return undefined;
  const files = options.targetIsFile
    ? [{ absolute: options.target, relative: basename(options.target) }]
    : walkFilesSync({
        root: options.target,
        maxEntries: limits.maxEntries,
        ...(options.signal ? { signal: options.signal } : {}),
      });
  if (!files) {
    rememberTooLarge(options.target);
    return undefined;
  }
  const include = options.include && !options.targetIsFile ? compileGlob(options.include) : undefined;
  const matches: GrepMatch[] = [];
  let budget = limits.maxBytes;
  for (const file of files) {
    if (include && !include.matches(file.relative)) continue;
    const bytes = readWithin(file.absolute, budget);
    if (bytes === "over") {
      if (!options.targetIsFile) rememberTooLarge(options.target);
      return undefined;
    }
    if (bytes === undefined) continue;
    budget -= bytes.length;
    // Binary files are skipped, as the ripgrep back end skips any file with a NUL byte.
    if (bytes.includes(0)) continue;
    if (startsWithByteOrderMark(bytes)) return undefined;
    const text = bytes.toString("utf8");
    // Invalid UTF-8: ripgrep matches the raw bytes; a decoded U+FFFD would not behave the same.
    if (text.includes("\uFFFD")) return undefined;
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index]!;
      if (!regex.test(line)) continue;
      matches.push({
        path: file.absolute,
        line: index + 1,
        text: line.endsWith("\r") ? line.slice(0, -1) : line,
      });
      if (matches.length > options.maxMatches) {
        return { matches: matches.slice(0, options.maxMatches), truncated: true };
      }
    }
  }
  return { matches, truncated: false };
}

/** The file's bytes, "over" when it is larger than `budget`, undefined when it cannot be read. */
function readWithin(path: string, budget: number): Buffer | "over" | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(descriptor).size;
    if (size > budget) return "over";
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(descriptor, buffer, filled, size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

function startsWithByteOrderMark(bytes: Buffer): boolean {
  const [first, second, third] = bytes;
  return (
    (first === 0xef && second === 0xbb && third === 0xbf) ||
    (first === 0xff && second === 0xfe) ||
    (first === 0xfe && second === 0xff)
  );
}

/** True when `folder` is, or contains, a folder already found too large. */
function knownTooLarge(folder: string): boolean {
  for (const large of tooLarge) {
    const fromFolder = relative(folder, large);
    if (fromFolder === "" || (!fromFolder.startsWith("..") && !isAbsolute(fromFolder))) return true;
  }
  return false;
}

function rememberTooLarge(folder: string): void {
  if (tooLarge.size >= TOO_LARGE_REMEMBERED) tooLarge.delete(tooLarge.values().next().value!);
  tooLarge.add(folder);
}
