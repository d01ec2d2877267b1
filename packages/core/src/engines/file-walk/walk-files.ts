import { type Dirent, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { IgnoreRules } from "./ignore-rules.js";

/** Directory names never descended into, whatever the ignore files say. */
export const ALWAYS_SKIPPED_DIRECTORIES = new Set([".git", "node_modules"]);

export interface WalkOptions {
  /** Directory to walk (absolute). */
  root: string;
  /** Include entries whose name starts with a dot. Default false. */
  includeHidden?: boolean;
  /** Honour .gitignore / .ignore / .rgignore files (in the root, below it and above it). Default true. */
  respectIgnoreFiles?: boolean;
  signal?: AbortSignal;
}

export interface WalkedFile {
  absolute: string;
  /** `/`-separated, relative to the root. */
  relative: string;
}

/**
 * Yields the regular files under `root`, depth first with each directory's entries sorted by
 * name bytes — the order `rg --sort path` uses, so both grep back ends agree. Symlinks are not
 * followed (nor listed), like ripgrep's default. Lazily, so glob and fuzzy_find stop reading at
 * their caps (why this is not fdir or @nyzhi/index's walker: docs/decisions/009).
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const respect = options.respectIgnoreFiles !== false;
  const rules = respect ? await IgnoreRules.forAncestorsOf(options.root) : IgnoreRules.empty();
  yield* walkDirectory(options.root, "", rules, options);
}

async function* walkDirectory(
  directory: string,
  relativeDirectory: string,
  inherited: IgnoreRules,
  options: WalkOptions,
): AsyncGenerator<WalkedFile> {
  options.signal?.throwIfAborted();
  const rules = options.respectIgnoreFiles === false ? inherited : await inherited.withDirectory(directory);
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of walkedEntries(directory, relativeDirectory, entries, rules, options)) {
    if (entry.isDirectory) yield* walkDirectory(entry.absolute, entry.relative, rules, options);
    else yield entry;
  }
}

/**
 * {@link walkFiles} done synchronously and within a budget, for searches small enough that a
 * process spawn or a round of thread-pool calls would cost more than the work: the files, or
 * undefined as soon as the folders read hold more than `maxEntries` entries (of any kind) or an
 * ignore file ripgrep would read differently (see {@link IgnoreRules.ripgrepReadsAlike}).
 */
export function walkFilesSync(options: WalkOptions & { maxEntries: number }): WalkedFile[] | undefined {
  const respect = options.respectIgnoreFiles !== false;
  const rules = respect ? IgnoreRules.forAncestorsOfSync(options.root) : IgnoreRules.empty();
  const files: WalkedFile[] = [];
  let seen = 0;
  const visit = (directory: string, relativeDirectory: string, inherited: IgnoreRules): boolean => {
    options.signal?.throwIfAborted();
    const rules = respect ? inherited.withDirectorySync(directory) : inherited;
    if (!rules.ripgrepReadsAlike) return false;
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      return true;
    }
    // Every entry counts, hidden and ignored ones too: the budget bounds the work, not the result.
    seen += entries.length;
    if (seen > options.maxEntries) return false;
    for (const entry of walkedEntries(directory, relativeDirectory, entries, rules, options)) {
      if (!entry.isDirectory) files.push(entry);
      else if (!visit(entry.absolute, entry.relative, rules)) return false;
    }
    return true;
  };
  return visit(options.root, "", rules) ? files : undefined;
}

interface WalkedEntry extends WalkedFile {
  isDirectory: boolean;
}

/** The entries of one directory a walk visits, in walk order: no hidden, ignored or skipped ones. */
function walkedEntries(
  directory: string,
  relativeDirectory: string,
  entries: Dirent[],
  rules: IgnoreRules,
  options: WalkOptions,
): WalkedEntry[] {
  entries.sort((left, right) => compareNames(left.name, right.name));
  const walked: WalkedEntry[] = [];
  for (const entry of entries) {
    if (!options.includeHidden && entry.name.startsWith(".")) continue;
    const isDirectory = entry.isDirectory();
    if (!isDirectory && !entry.isFile()) continue;
    if (ALWAYS_SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const absolute = join(directory, entry.name);
    if (rules.ignores(absolute, isDirectory)) continue;
    const relative = relativeDirectory === "" ? entry.name : `${relativeDirectory}/${entry.name}`;
    walked.push({ absolute, relative, isDirectory });
  }
  return walked;
}

/** Compares names by their UTF-8 bytes (ripgrep's order), not by UTF-16 code units. */
export function compareNames(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}

/** Compares `/`-separated relative paths segment by segment, matching the walk order. */
export function comparePaths(left: string, right: string): number {
  const leftParts = left.split("/");
  const rightParts = right.split("/");
  for (let index = 0; index < Math.min(leftParts.length, rightParts.length); index += 1) {
    const order = compareNames(leftParts[index]!, rightParts[index]!);
    if (order !== 0) return order;
  }
  return leftParts.length - rightParts.length;
}
