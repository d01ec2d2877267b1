import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fuzzyFilter } from "../fuzzy/fuzzy-match.js";
import { type FileSource, MAX_COMPLETIONS } from "../input/input-completion.js";

/** Files listed for `@` completion at most; a larger project completes the first ones found. */
export const MAX_PROJECT_FILES = 5000;

const SKIPPED = new Set([".git", "node_modules", "dist", "build", "target", ".turbo", ".next", "coverage"]);

/**
 * The project's files for `@path` completion: listed once in the background (breadth first, at
 * most MAX_PROJECT_FILES, skipping .git, node_modules and build output); until then, none.
 */
export function projectFiles(root: string): FileSource {
  let files: string[] = [];
  void (async () => {
    const found: string[] = [];
    const queue = [root];
    while (queue.length > 0 && found.length < MAX_PROJECT_FILES) {
      const dir = queue.shift()!;
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.isDirectory()) {
          if (!SKIPPED.has(entry.name)) queue.push(join(dir, entry.name));
        } else if (entry.isFile()) found.push(relative(root, join(dir, entry.name)));
      }
    }
    files = found.slice(0, MAX_PROJECT_FILES);
  })();
  return (query) => fuzzyFilter(files, query, (file) => file, MAX_COMPLETIONS).map((result) => result.item);
}
