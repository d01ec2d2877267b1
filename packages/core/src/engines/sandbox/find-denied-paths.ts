import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, sep } from "node:path";
import { globToRegExp } from "../glob/glob-to-regexp.js";
import { type NormalizedPathPattern, normalizePathPattern } from "./path-patterns.js";
import { isWithin } from "./resolve-real-path.js";

/** One existing path to hide inside the sandbox, by what it is. */
export interface DeniedPath {
  /** Real absolute path. */
  path: string;
  kind: "file" | "directory";
}

export interface FindDeniedPathsOptions {
  /** `deny_paths` patterns. */
  patterns: readonly string[];
  /** Real paths of the workspace roots: walked for bare names and relative patterns. */
  roots: readonly string[];
  /** Paths that must stay visible (the working directory): a match containing one is not masked. */
  keepVisible?: readonly string[];
  /** Default `os.homedir()`: its direct children are checked against bare names. */
  home?: string;
  /** Directory entries looked at, in all. Default 20,000. */
  maxEntries?: number;
  /** Directory levels below a root. Default 12. */
  maxDepth?: number;
  /** Paths returned at most (each becomes one mount). Default 256. */
  maxPaths?: number;
}

export interface DeniedPathsFound {
  /** Sorted, none inside another that is a directory. */
  paths: DeniedPath[];
  /** False when a limit stopped the search: some denied paths may not be in `paths`. */
  complete: boolean;
}

/** Directories the walk does not enter: huge, and not where secrets live. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".git"]);
/** Hidden already (private /tmp) or not files at all. */
const NEVER_MASKED = ["/proc", "/dev", "/sys", "/tmp"];

/**
 * Finds the existing files and directories that `deny_paths` covers, so the command sandbox can
 * mount something empty over each one. Bounded: the workspace roots are walked (not entering
 * node_modules or .git, at most `maxEntries` entries and `maxDepth` levels), the home directory's
 * direct children are checked against bare names, and an absolute pattern (`~/.ssh`, `/etc/**`) is
 * looked up directly, or walked from its last literal directory when it has wildcards. A pattern
 * ending in `/**` masks the directory itself. A match that contains a root or a `keepVisible` path
 * is left out: hiding it would hide the workspace (the path checks refuse those paths anyway).
 */
export function findDeniedPaths(options: FindDeniedPathsOptions): DeniedPathsFound {
  const { paths, complete } = runSearch(options);
  return { paths, complete };
}

/**
 * Remembers the last search and the modification time and listing of every directory it read, so
 * a later call with the same options costs one `stat` per directory instead of a walk: adding,
 * removing or renaming an entry changes its directory's mtime. A directory whose mtime moved is
 * listed again, and only a different listing means a fresh search (an entry created and removed
 * again in between, like a sandbox mount point, changes nothing). Keep one per session.
 */
export class DeniedPathsCache {
  private last: { key: string; result: SearchResult } | undefined;

  find(options: FindDeniedPathsOptions): DeniedPathsFound {
    const key = JSON.stringify([
      options.patterns,
      options.roots,
      options.keepVisible ?? [],
      options.home ?? homedir(),
      options.maxEntries,
      options.maxDepth,
      options.maxPaths,
    ]);
    if (this.last?.key !== key || changed(this.last.result.watched)) {
      this.last = { key, result: runSearch(options) };
    }
    const { paths, complete } = this.last.result;
    return { paths, complete };
  }
}

/** What a directory looked like when it was read; undefined when it could not be read. */
interface DirectoryState {
  /** ns */
  mtime: bigint;
  /** Its entries' names, sorted, `/` after directories. */
  listing: string;
}

/** Whether any watched directory's listing differs from when it was read. */
function changed(watched: ReadonlyMap<string, DirectoryState | undefined>): boolean {
  for (const [directory, before] of watched) {
    const mtime = modificationTime(directory);
    if (mtime === before?.mtime) continue;
    if (mtime === undefined || before === undefined) return true;
    if (readDirectory(directory)?.listing !== before.listing) return true;
    before.mtime = mtime; // same entries: no need to list it again next time
  }
  return false;
}

function modificationTime(path: string): bigint | undefined {
  try {
    return statSync(path, { bigint: true }).mtimeNs;
  } catch {
    return undefined;
  }
}

/** The directory's entries and its state; undefined when it is missing, unreadable or no directory. */
function readDirectory(directory: string): (DirectoryState & { entries: Dirent[] }) | undefined {
  try {
    const stats = statSync(directory, { bigint: true });
    if (!stats.isDirectory()) return undefined;
    const entries = readdirSync(directory, { withFileTypes: true });
    const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    return { mtime: stats.mtimeNs, listing: names.sort().join("\0"), entries };
  } catch {
    return undefined;
  }
}

interface SearchResult extends DeniedPathsFound {
  /** Every directory read (and each literal pattern's parent), as it was then. */
  watched: Map<string, DirectoryState | undefined>;
}

function runSearch(options: FindDeniedPathsOptions): SearchResult {
  const home = options.home ?? homedir();
  const patterns = options.patterns
    .map((source) => normalizePathPattern(wholeDirectory(source)))
    .filter((pattern) => pattern !== undefined);
  const levels = options.maxDepth ?? 12;
  const search = new Search(compileMatchers(patterns), { maxEntries: options.maxEntries ?? 20_000 });
  for (const root of options.roots) search.walk(root, levels, { relative: "" });
  for (const { kind, pattern } of patterns) {
    if (kind !== "absolute") continue;
    const base = literalPrefix(pattern);
    if (base === pattern) {
      search.watch(dirname(pattern));
      search.consider(pattern);
    } else if (!options.roots.some((root) => isWithin(base, root))) search.walk(base, levels);
  }
  if (patterns.some((pattern) => pattern.kind === "name")) search.walk(home, 1, { bounded: false });

  const visible = [...options.roots, ...(options.keepVisible ?? [])];
  const candidates = [...search.found.entries()]
    .filter(([path]) => !visible.some((keep) => isWithin(keep, path)))
    .filter(([path]) => !NEVER_MASKED.some((prefix) => isWithin(path, prefix)) || underRoot(path, options))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const paths: DeniedPath[] = [];
  // Nothing inside a masked directory: bubblewrap could not create its mount point there.
  for (const [path, kind] of candidates) {
    if (paths.some((kept) => kept.kind === "directory" && isWithin(path, kept.path))) continue;
    paths.push({ path, kind });
  }
  const maxPaths = options.maxPaths ?? 256;
  return {
    paths: paths.slice(0, maxPaths),
    complete: search.complete && paths.length <= maxPaths,
    watched: search.watched,
  };
}

/** The patterns by shape, compiled once for the walk. */
interface Matchers {
  name: RegExp[];
  relative: RegExp[];
  absolute: RegExp[];
}

function compileMatchers(patterns: readonly NormalizedPathPattern[]): Matchers {
  const matchers: Matchers = { name: [], relative: [], absolute: [] };
  for (const { kind, pattern } of patterns) matchers[kind].push(globToRegExp(pattern));
  return matchers;
}

function underRoot(path: string, options: FindDeniedPathsOptions): boolean {
  return options.roots.some((root) => isWithin(path, root));
}

/** `secrets/**` → `secrets`: masking the directory hides all it holds (and its listing). */
function wholeDirectory(pattern: string): string {
  const trimmed = pattern.trim();
  return /[^/]\/\*\*\/?$/.test(trimmed) ? trimmed.replace(/\/\*\*\/?$/, "") : trimmed;
}

/** The directory part of `pattern` before its first wildcard component (`/a/b/*.pem` → `/a/b`). */
function literalPrefix(pattern: string): string {
  const components = pattern.split("/");
  const wild = components.findIndex((component) => /[*?[\]{}]/.test(component));
  if (wild === -1) return pattern;
  return components.slice(0, wild).join("/") || "/";
}

/**
 * One bounded search. The walk stops at a match, so only the entry itself is tested (its
 * ancestors did not match): a bare name against the entry's name, a relative pattern against its
 * path inside the root, an absolute one against its absolute path.
 */
class Search {
  readonly found = new Map<string, DeniedPath["kind"]>();
  readonly watched = new Map<string, DirectoryState | undefined>();
  complete = true;
  private entries = 0;

  constructor(
    private readonly matchers: Matchers,
    private readonly limits: { maxEntries: number },
  ) {}

  /** Notes `directory`'s listing, so a cached result is dropped when an entry appears in it. */
  watch(directory: string): void {
    const read = readDirectory(directory);
    this.watched.set(directory, read && { mtime: read.mtime, listing: read.listing });
  }

  /** Records `path` if it exists (following a symlink to what it names). */
  consider(path: string): void {
    let real: string;
    let kind: DeniedPath["kind"];
    try {
      real = realpathSync.native(path);
      kind = statSync(real).isDirectory() ? "directory" : "file";
    } catch {
      return; // missing or dangling: nothing to hide
    }
    this.found.set(real, kind);
  }

  /**
   * Checks the entries of `directory` and of its subdirectories, `levels` deep (1: its own entries
   * only). `relative` is the directory's path inside a workspace root (`""` for the root itself).
   * A `bounded` walk that runs out of levels is incomplete; a shallow look by design is not.
   */
  walk(directory: string, levels: number, options: { relative?: string; bounded?: boolean } = {}): void {
    // Missing or unreadable is watched too: it appearing later invalidates a cached result.
    const read = readDirectory(directory);
    this.watched.set(directory, read && { mtime: read.mtime, listing: read.listing });
    if (read === undefined) return; // commands cannot read it either
    for (const entry of read.entries) {
      if (++this.entries > this.limits.maxEntries) {
        this.complete = false;
        return;
      }
      const path = directory.endsWith(sep) ? directory + entry.name : join(directory, entry.name);
      const relative =
        options.relative === undefined
          ? undefined
          : options.relative === ""
            ? entry.name
            : `${options.relative}/${entry.name}`;
      if (this.matches(entry.name, relative, path)) {
        if (entry.isSymbolicLink()) this.consider(path);
        else this.found.set(path, entry.isDirectory() ? "directory" : "file");
        continue;
      }
      if (!entry.isDirectory() || SKIPPED_DIRECTORIES.has(entry.name)) continue;
      if (levels > 1)
        this.walk(path, levels - 1, { ...options, ...(relative === undefined ? {} : { relative }) });
      else if (options.bounded !== false) this.complete = false;
    }
  }

  private matches(name: string, relative: string | undefined, path: string): boolean {
    const { matchers } = this;
    if (matchers.name.some((regexp) => regexp.test(name))) return true;
    if (relative !== undefined && matchers.relative.some((regexp) => regexp.test(relative))) return true;
    if (matchers.absolute.length === 0) return false;
    const slashes = sep === "/" ? path : path.split(sep).join("/");
    return matchers.absolute.some((regexp) => regexp.test(slashes));
  }
}
