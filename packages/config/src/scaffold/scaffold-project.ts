import { access, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { addIgnoreEntries, ensureNyzhiGitignore, gitExcludeFile } from "./ignore-local-files.js";
import {
  CONFIG_TEMPLATE,
  EXAMPLE_ROLE_TEMPLATE,
  GITIGNORE_ENTRIES,
  LOCAL_PREFERENCES_TEMPLATE,
  REVIEW_COMMAND_TEMPLATE,
  RULES_TEMPLATE,
} from "./project-templates.js";

export interface ScaffoldResult {
  /** Absolute paths of the files and directories created. */
  created: string[];
  /** Absolute paths that already existed and were left alone. */
  skipped: string[];
  /** Entries added to `ignoreFile`: the personal files outside `.nyzhi/` (`NYZHI.local.md`). */
  gitignoreAdded: string[];
  /** Where `gitignoreAdded` went: the project's `.gitignore` if it has one, else the repository's `.git/info/exclude`. */
  ignoreFile?: string;
}

const FILES: ReadonlyArray<[string, string]> = [
  [".nyzhi/config.toml", CONFIG_TEMPLATE],
  [".nyzhi/rules.md", RULES_TEMPLATE],
  [".nyzhi/agents/example-reviewer.md", EXAMPLE_ROLE_TEMPLATE],
  [".nyzhi/commands/review.md", REVIEW_COMMAND_TEMPLATE],
  ["NYZHI.local.md", LOCAL_PREFERENCES_TEMPLATE],
];

/** Writes `content` only if `path` does not exist yet; returns whether it wrote. */
async function createFile(path: string, content: string): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, content, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The project's `.gitignore` when it has one, else its repository's exclude file (never committed). */
async function personalIgnoreFile(root: string): Promise<string | undefined> {
  const gitignore = join(root, ".gitignore");
  try {
    await access(gitignore);
    return gitignore;
  } catch {
    return gitExcludeFile(root);
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * `nyz init`: creates `.nyzhi/config.toml` (a commented template), `.nyzhi/rules.md`,
 * `.nyzhi/rules/`, `.nyzhi/agents/example-reviewer.md`, `.nyzhi/commands/review.md` and
 * `NYZHI.local.md`. Keeps the files of this machine out of commits: `.nyzhi/.gitignore` lists
 * `config.local.toml`, `local.md` and `context/`, and `NYZHI.local.md` goes into the project's
 * `.gitignore` if it has one, else into the repository's `.git/info/exclude` (outside a
 * repository, nowhere). Never overwrites: existing files are reported in `skipped`.
 */
export async function scaffoldProject(root: string): Promise<ScaffoldResult> {
  const result: ScaffoldResult = { created: [], skipped: [], gitignoreAdded: [] };
  for (const [relativePath, content] of FILES) {
    const path = join(root, relativePath);
    if (await createFile(path, content)) result.created.push(path);
    else result.skipped.push(path);
  }
  const rulesDirectory = join(root, ".nyzhi", "rules");
  if (await mkdir(rulesDirectory, { recursive: true })) result.created.push(rulesDirectory);
  else result.skipped.push(rulesDirectory);
  const nyzhiGitignore = join(root, ".nyzhi", ".gitignore");
  const hadNyzhiGitignore = await exists(nyzhiGitignore);
  await ensureNyzhiGitignore(root);
  if (!hadNyzhiGitignore) result.created.push(nyzhiGitignore);
  const ignoreFile = await personalIgnoreFile(root);
  if (ignoreFile) {
    result.gitignoreAdded = await addIgnoreEntries(ignoreFile, GITIGNORE_ENTRIES);
    if (result.gitignoreAdded.length > 0) result.ignoreFile = ignoreFile;
  }
  return result;
}
