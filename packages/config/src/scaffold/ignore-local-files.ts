import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { withFileLock } from "../base/file-lock.js";
import { writeFileAtomic } from "../base/write-file-atomic.js";

/**
 * What `.nyzhi/.gitignore` lists: files of one machine that never belong in a commit (personal
 * settings and preferences, and nyzhi's working files: offloaded tool output, saved histories,
 * the MCP tool index).
 */
export const NYZHI_GITIGNORE_ENTRIES: readonly string[] = ["config.local.toml", "local.md", "context/"];

const NYZHI_GITIGNORE_HEADER = "# Written by nyzhi: files of this machine, kept out of commits.\n";

/**
 * Adds the `entries` that `file` (an ignore file: `.gitignore`, `.git/info/exclude`) lacks,
 * creating it with `header` when missing. Atomic, under `<file>.lock`, so two processes adding
 * at once both land. Returns the entries added. An entry counts as present written as is or
 * anchored (`/entry`).
 */
export async function addIgnoreEntries(
  file: string,
  entries: readonly string[],
  options: { header?: string } = {},
): Promise<string[]> {
  return withFileLock(`${file}.lock`, async () => {
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const present = new Set((text ?? "").split(/\r?\n/).map((line) => line.trim()));
    const missing = entries.filter((entry) => !present.has(entry) && !present.has(`/${entry}`));
    if (missing.length === 0) return [];
    const before = text === undefined ? (options.header ?? "") : text;
    const separator = before.length === 0 || before.endsWith("\n") ? "" : "\n";
    await writeFileAtomic(file, `${before}${separator}${missing.join("\n")}\n`);
    return missing;
  });
}

/** Makes sure `<root>/.nyzhi/.gitignore` lists `entries` (default: all of NYZHI_GITIGNORE_ENTRIES). */
export async function ensureNyzhiGitignore(
  projectRoot: string,
  entries: readonly string[] = NYZHI_GITIGNORE_ENTRIES,
): Promise<string[]> {
  return addIgnoreEntries(join(projectRoot, ".nyzhi", ".gitignore"), entries, {
    header: NYZHI_GITIGNORE_HEADER,
  });
}

/**
 * The repository's own exclude file (`.git/info/exclude`, never committed) for a directory inside
 * a git work tree, found by walking up to the nearest `.git`; in a linked worktree (`.git` is a
 * `gitdir:` file) the common directory's. Undefined outside a repository.
 */
export function gitExcludeFile(directory: string): string | undefined {
  for (let current = resolve(directory); ; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const kind = kindOf(dotGit);
    if (kind === "directory") return join(dotGit, "info", "exclude");
    if (kind === "file") return excludeOfLinkedGitDir(dotGit);
    if (dirname(current) === current) return undefined;
  }
}

function excludeOfLinkedGitDir(dotGitFile: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGitFile, "utf8"));
    if (!match?.[1]) return undefined;
    const gitDir = resolve(dirname(dotGitFile), match[1]);
    let common = gitDir;
    try {
      const pointer = readFileSync(join(gitDir, "commondir"), "utf8").trim();
      common = isAbsolute(pointer) ? pointer : resolve(gitDir, pointer);
    } catch {
      // A submodule's git dir has no commondir: its own info/exclude applies.
    }
    return join(common, "info", "exclude");
  } catch {
    return undefined;
  }
}

function kindOf(path: string): "directory" | "file" | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? "directory" : stats.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}
