import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getLogger } from "@nyzhi/config";
import { IGNORE_FILE_NAMES } from "./default-ignore-rules.js";
import type { IgnoreStack } from "./ignore-stack.js";
import { createTimeSlicer } from "./time-slicer.js";

/** A path the walk found and did not rule out by name; the classifier decides the rest. */
export interface WalkCandidate {
  /** Relative to the root, POSIX separators. */
  path: string;
  absolutePath: string;
}

export interface FilesystemWalkOptions {
  rules: IgnoreStack;
  excluded: (path: string) => boolean;
  signal?: AbortSignal | undefined;
}

/**
 * Walks `root` the way git would list it outside a repository: each directory's `.gitignore`
 * and `.nyzhiignore` are read before its entries are judged, an ignored or excluded directory is
 * not entered (and counts once in `ignored`), `.git` is never entered. Symbolic links are
 * returned as candidates and never entered here: the classifier resolves them, so a link to a
 * directory cannot make a loop. Synchronous calls in time slices (see time-slicer.ts).
 */
export async function walkFilesystem(
  root: string,
  options: FilesystemWalkOptions,
): Promise<{ candidates: WalkCandidate[]; ignored: number }> {
  const candidates: WalkCandidate[] = [];
  let ignored = 0;
  const slicer = createTimeSlicer();
  const pending = [""];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    if (slicer.due()) await slicer.yield();
    options.signal?.throwIfAborted();
    const absoluteDirectory = directory ? join(root, directory) : root;
    const entries = readDirectory(absoluteDirectory);
    loadIgnoreFiles(absoluteDirectory, directory, entries, options.rules);
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile() && !entry.isSymbolicLink()) continue;
      const path = directory ? `${directory}/${entry.name}` : entry.name;
      if (options.rules.isIgnored(path, { directory: isDirectory }) || options.excluded(path)) {
        ignored++;
      } else if (isDirectory) {
        pending.push(path);
      } else {
        candidates.push({ path, absolutePath: join(absoluteDirectory, entry.name) });
      }
    }
  }
  return { candidates, ignored };
}

function readDirectory(absoluteDirectory: string): Dirent[] {
  try {
    return readdirSync(absoluteDirectory, { withFileTypes: true });
  } catch (error) {
    getLogger().warn(
      { err: error, directory: absoluteDirectory },
      "index walk: directory not readable, skipped",
    );
    return [];
  }
}

function loadIgnoreFiles(
  absoluteDirectory: string,
  directory: string,
  entries: readonly Dirent[],
  rules: IgnoreStack,
): void {
  for (const name of IGNORE_FILE_NAMES) {
    if (!entries.some((entry) => entry.name === name && !entry.isDirectory())) continue;
    try {
      rules.add(directory, readFileSync(join(absoluteDirectory, name), "utf8"));
    } catch (error) {
      getLogger().warn(
        { err: error, file: join(absoluteDirectory, name) },
        "index walk: ignore file not readable",
      );
    }
  }
}
