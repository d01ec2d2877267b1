import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseFrontMatter } from "./parse-front-matter.js";

/** Candidates for the project's primary instructions, highest priority first. */
export const PRIMARY_RULE_FILES = [
  "AGENTS.md",
  ".nyzhi/rules.md",
  ".nyzhi/instructions.md",
  "CLAUDE.md",
  ".cursorrules",
];
/** Candidates for the user's untracked local preferences, highest priority first. */
export const LOCAL_PREFERENCE_FILES = ["NYZHI.local.md", ".nyzhi/local.md"];
/** Folder of modular rule files (`*.md`, read in filename order). */
export const MODULAR_RULES_DIR = ".nyzhi/rules";

export interface RuleSection {
  kind: "primary" | "local" | "modular";
  /** Path relative to the project root, e.g. `AGENTS.md`, `.nyzhi/rules/style.md`. */
  label: string;
  path: string;
  /** The text as it goes to the model (trimmed; front matter removed; local preferences headed). */
  content: string;
}

/** A modular rule that applies only when a file matching one of `globs` is involved. */
export interface ConditionalRule {
  label: string;
  path: string;
  /** Globs from the front matter `paths:`, relative to the project root. */
  globs: string[];
  content: string;
}

export interface LoadedRules {
  /** Primary, then local preferences, then unconditional modular rules. */
  sections: RuleSection[];
  conditional: ConditionalRule[];
  /** Label of the primary file, e.g. `AGENTS.md`. */
  primarySource: string | undefined;
  /** The sections joined by a blank line; undefined when there are none. */
  text: string | undefined;
  /** One line per skipped rule file (broken front matter), starting with `warning: `. */
  warnings: string[];
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

async function firstNonBlank(root: string, candidates: readonly string[]): Promise<RuleSection | undefined> {
  for (const label of candidates) {
    const path = join(root, label);
    const text = (await readText(path))?.trim();
    if (text) return { kind: "primary", label, path, content: text };
  }
  return undefined;
}

function globsOf(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return undefined;
}

/** Reads `.nyzhi/rules/*.md` in filename order, splitting conditional rules from the others. */
export async function loadModularRules(
  root: string,
): Promise<{ modular: RuleSection[]; conditional: ConditionalRule[]; warnings: string[] }> {
  const directory = join(root, MODULAR_RULES_DIR);
  let names: string[];
  try {
    names = (await readdir(directory, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return { modular: [], conditional: [], warnings: [] };
  }
  const modular: RuleSection[] = [];
  const conditional: ConditionalRule[] = [];
  const warnings: string[] = [];
  for (const name of names) {
    const path = join(directory, name);
    const label = `${MODULAR_RULES_DIR}/${name}`;
    const parsed = await parseFrontMatter((await readText(path)) ?? "");
    if (!parsed.ok) {
      warnings.push(`warning: ${path}: invalid front matter (${parsed.reason}); rule skipped`);
      continue;
    }
    const content = parsed.body.trim();
    if (!content) continue;
    if (!Object.hasOwn(parsed.data, "paths")) {
      modular.push({ kind: "modular", label, path, content });
      continue;
    }
    const globs = globsOf(parsed.data.paths);
    if (!globs) {
      warnings.push(
        `warning: ${path}: front matter \`paths\` must be a glob or a list of globs; rule skipped`,
      );
      continue;
    }
    conditional.push({ label, path, globs, content });
  }
  return { modular, conditional, warnings };
}

/**
 * The project's always-on instructions: the first non-blank primary file (`AGENTS.md`,
 * `.nyzhi/rules.md`, `.nyzhi/instructions.md`, `CLAUDE.md`, `.cursorrules`), then the first
 * non-blank local preferences file (`NYZHI.local.md`, `.nyzhi/local.md`) under a
 * `# Local Preferences` heading, then `.nyzhi/rules/*.md` without a `paths:` front matter.
 * Rules with `paths:` are returned in `conditional` (see `loadConditionalRules`).
 */
export async function loadRules(root: string): Promise<LoadedRules> {
  const sections: RuleSection[] = [];
  const primary = await firstNonBlank(root, PRIMARY_RULE_FILES);
  if (primary) sections.push(primary);
  const local = await firstNonBlank(root, LOCAL_PREFERENCE_FILES);
  if (local) sections.push({ ...local, kind: "local", content: `# Local Preferences\n\n${local.content}` });
  const { modular, conditional, warnings } = await loadModularRules(root);
  sections.push(...modular);
  return {
    sections,
    conditional,
    primarySource: primary?.label,
    text: sections.length > 0 ? sections.map((section) => section.content).join("\n\n") : undefined,
    warnings,
  };
}
