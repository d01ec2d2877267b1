import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { basename, isAbsolute, relative } from "node:path";
import { walkFilesSync } from "../file-walk/walk-files.js";
import type { GrepMatch, GrepSearchOptions, GrepSearchResult } from "./grep-search-types.js";
import { translateRustRegex } from "./rust-regex.js";

/**
 * Limits of a search done in-process: past them, ripgrep (its own process, parallel, memory-mapped
 * files) is the faster tool, and the search is handed to it. Within them the whole search costs
 * less than starting one process.
 */
export interface InProcessLimits {
  /** Files and directories the walk may see (ignored ones included). */
  maxEntries: number;
  /** Bytes of file content it may read. */
  maxBytes: number;
  /**
   * Longest line (UTF-16 code units) it matches, for a pattern with at most one choice point; with
   * two, a fifth of that (backtracking cost grows with the line length to the power of choice
   * points + 1). A longer line hands the search to ripgrep.
   */
  maxLineChars: number;
  /** Milliseconds of matching before the search is handed to ripgrep. */
  maxMatchMs: number;
}

export const IN_PROCESS_LIMITS: InProcessLimits = {
  maxEntries: 300,
  maxBytes: 1024 * 1024,
  maxLineChars: 500,
  maxMatchMs: 25,
};

/** Patterns with more choice points than this go to ripgrep (see TranslatedRegex). */
const MAX_CHOICE_POINTS = 2;

/** Searches (pattern and target) that ran past `maxMatchMs` once: ripgrep's from then on. */
const tooSlow = new Set<string>();

/**
 * Folders found too large for an in-process search, or holding an ignore file ripgrep reads
 * differently (bounded; a folder that grows past the limit is met again and costs one more walk
 * up to it).
 */
const tooLarge = new Set<string>();
const REMEMBERED = 64;

/**
 * Searches a small folder or file synchronously, with exactly ripgrep's results: the same walk
 * (order, ignore files, skipped files), the pattern translated from Rust's regex syntax. Gives
 * undefined when it cannot promise that — the pattern is outside the translated subset or there is
 * an include glob (ripgrep lets it override ignore files), the tree is over the limits, a file is
 * one ripgrep would decode differently (a byte-order mark, bytes that are not UTF-8) — or cannot
 * promise to be quick: JavaScript's regex engine backtracks where ripgrep's runs in linear time, so
 * repeated groups and more than two choice points are refused outright, and long lines or matching
 * past `maxMatchMs` hand the search over (a search that was too slow once goes to ripgrep from then
 * on). The caller then runs ripgrep. Checked against ripgrep by in-process-grep-vs-ripgrep.test.ts;
 * why it is kept: docs/decisions/010.
 */
export function searchInProcess(
  options: GrepSearchOptions,
  limits: InProcessLimits = IN_PROCESS_LIMITS,
): GrepSearchResult | undefined {
  if (options.include) return undefined;
  const translated = translateRustRegex(options.pattern, options.caseInsensitive === true);
  if (!translated || translated.repeatsGroup || translated.choicePoints > MAX_CHOICE_POINTS) return undefined;
  const slowKey = `${options.caseInsensitive === true}\0${options.pattern}\0${options.target}`;
  if (tooSlow.has(slowKey)) return undefined;
  const regex = translated.regex;
  const maxLineChars =
    translated.choicePoints >= MAX_CHOICE_POINTS ? Math.floor(limits.maxLineChars / 5) : limits.maxLineChars;
  if (options.targetIsFile && !isRegularFile(options.target)) return undefined;
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
  const matches: GrepMatch[] = [];
  let budget = limits.maxBytes;
  const started = monotonicMs();
  for (const file of files) {
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
      if (line.length > maxLineChars) return undefined;
      if (monotonicMs() - started > limits.maxMatchMs) {
        remember(tooSlow, slowKey);
        return undefined;
      }
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

/** Only regular files: a FIFO would block the process in `open`, a /proc file reports size 0. */
function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
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
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return undefined;
    if (stats.size > budget) return "over";
    // Read to the end, not to the size seen: a file that grew meanwhile is read as it is now.
    const buffer = Buffer.allocUnsafe(Math.min(budget, stats.size) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) return "over";
      const read = readSync(descriptor, buffer, filled, buffer.length - filled, filled);
      if (read === 0) return buffer.subarray(0, filled);
      filled += read;
    }
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
  remember(tooLarge, folder);
}

/** Adds to a bounded memo, forgetting the oldest entry when full. */
function remember(memo: Set<string>, key: string): void {
  if (memo.size >= REMEMBERED) memo.delete(memo.values().next().value!);
  memo.add(key);
}

/**
 * Milliseconds from an arbitrary start. Not `performance.now()`: that global loads perf_hooks
 * (~0.7 ms of module compiling) on a run's first grep.
 */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
