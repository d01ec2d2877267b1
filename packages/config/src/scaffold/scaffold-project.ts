import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
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
  /** Entries appended to an existing `.gitignore`. */
  gitignoreAdded: string[];
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

async function appendToGitignore(root: string): Promise<string[]> {
  const path = join(root, ".gitignore");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return [];
  }
  const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
  const missing = GITIGNORE_ENTRIES.filter((entry) => !present.has(entry) && !present.has(`/${entry}`));
  if (missing.length === 0) return [];
  const separator = text.length === 0 || text.endsWith("\n") ? "" : "\n";
  await writeFile(path, `${text}${separator}${missing.join("\n")}\n`);
  return missing;
}

/**
 * `nyz init`: creates `.nyzhi/config.toml` (a commented template), `.nyzhi/rules.md`,
 * `.nyzhi/rules/`, `.nyzhi/agents/example-reviewer.md`, `.nyzhi/commands/review.md` and
 * `NYZHI.local.md`, and adds the personal files to an existing `.gitignore`. Never overwrites:
 * existing files are reported in `skipped` for the caller to mention.
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
  result.gitignoreAdded = await appendToGitignore(root);
  return result;
}
