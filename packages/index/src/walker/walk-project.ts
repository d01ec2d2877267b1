import { realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { getLogger, NyzhiError } from "@nyzhi/config";
import type { WalkedFile, WalkResult } from "../types.js";
import { classifyCandidate } from "./classify-candidate.js";
import { DEFAULT_IGNORE_RULES } from "./default-ignore-rules.js";
import { createAncestorExcludeMatcher, createExcludeMatcher } from "./exclude-globs.js";
import { IgnoreStack } from "./ignore-stack.js";
import { listGitFiles } from "./list-git-files.js";
import { readGitListedIgnoreFiles } from "./read-git-listed-ignore-files.js";
import { createTimeSlicer } from "./time-slicer.js";
import { type WalkCandidate, walkFilesystem } from "./walk-filesystem.js";

/** Files over this size (bytes) are left out unless `maxFileBytes` says otherwise: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export interface WalkProjectOptions {
  /** `index.exclude`: globs of paths to leave out (see createExcludeMatcher). */
  exclude?: readonly string[];
  /** Size cap in bytes; larger files count as `tooLarge`. Default 1 MiB. */
  maxFileBytes?: number;
  signal?: AbortSignal;
  /**
   * Where the list of files comes from. `auto` (default): `git ls-files` inside a git work tree,
   * the file system with the `ignore` package elsewhere. `filesystem` forces the latter.
   */
  source?: "auto" | "filesystem";
  /**
   * Whether the caller knows the file at this path, size and modification time (epoch ms) to be
   * text: an index that holds it unchanged. Such a file's first bytes are not read to detect a
   * binary, so a re-index walk costs one `lstat` per unchanged file.
   */
  knownText?: (path: string, size: number, mtimeMs: number) => boolean;
}

/** The project root to index does not exist or is not a directory. */
export class IndexRootError extends NyzhiError {
  readonly root: string;

  constructor(root: string, problem: string) {
    super("index_root", `Cannot index ${root}: ${problem}. Run nyz in a project directory.`);
    this.root = root;
  }
}

/**
 * The files of the project at `root` worth indexing, sorted by path. Honours `.gitignore`
 * (git's exact rules inside a work tree; nested files and `!` outside one too), `.nyzhiignore`
 * files at any depth (same syntax, applied after `.gitignore`), the default rules
 * ({@link DEFAULT_IGNORE_RULES}) and `exclude`; never enters `.git`. Symbolic links are
 * followed only to files inside the project. Counts what it left out, by reason.
 */
export async function walkProject(root: string, options: WalkProjectOptions = {}): Promise<WalkResult> {
  options.signal?.throwIfAborted();
  const absoluteRoot = resolve(root);
  const realRoot = await resolveRoot(absoluteRoot);
  const rules = new IgnoreStack();
  rules.add("", DEFAULT_IGNORE_RULES);
  const excluded = createExcludeMatcher(options.exclude ?? []);
  const skipped = { ignored: 0, tooLarge: 0, binary: 0, outsideRoot: 0 };

  let candidates: WalkCandidate[];
  let source: "git" | "filesystem" = "filesystem";
  const gitPaths =
    options.source === "filesystem" ? undefined : await listGitFiles(absoluteRoot, options.signal);
  if (gitPaths) {
    source = "git";
    await readGitListedIgnoreFiles(absoluteRoot, gitPaths, rules);
    const excludedWithAncestors = createAncestorExcludeMatcher(excluded);
    candidates = [];
    for (const path of gitPaths) {
      if (path === ".git" || path.startsWith(".git/") || path.includes("/.git/")) continue;
      if (rules.isIgnoredWithAncestors(path) || excludedWithAncestors(path)) skipped.ignored++;
      else candidates.push({ path, absolutePath: join(absoluteRoot, path) });
    }
  } else {
    const walk = await walkFilesystem(absoluteRoot, { rules, excluded, signal: options.signal });
    candidates = walk.candidates;
    skipped.ignored = walk.ignored;
  }

  const classifyOptions = {
    realRoot,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    knownText: options.knownText,
  };
  const files: WalkedFile[] = [];
  const slicer = createTimeSlicer();
  for (const candidate of candidates) {
    if (slicer.due()) {
      await slicer.yield();
      options.signal?.throwIfAborted();
    }
    const verdict = classifyCandidate(candidate, classifyOptions);
    if (verdict === undefined) continue;
    if (typeof verdict === "string") skipped[verdict]++;
    else files.push(verdict);
  }
  files.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  getLogger().debug({ root: absoluteRoot, source, files: files.length, skipped }, "index walk done");
  return { files, skipped, source };
}

async function resolveRoot(absoluteRoot: string): Promise<string> {
  try {
    const stats = await stat(absoluteRoot);
    if (!stats.isDirectory()) throw new IndexRootError(absoluteRoot, "it is not a directory");
    return await realpath(absoluteRoot);
  } catch (error) {
    if (error instanceof IndexRootError) throw error;
    throw new IndexRootError(
      absoluteRoot,
      (error as { code?: string }).code === "ENOENT" ? "it does not exist" : String(error),
    );
  }
}
