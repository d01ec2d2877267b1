import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { compareText, type Environment, errorMessage, resolveDirs } from "@nyzhi/config";
import { readFrontMatter } from "./read-front-matter.js";
import { fallbackDescription, singleLine } from "./skill-description.js";
import type { LoadedSkills, Skill, SkillSource } from "./skill-types.js";

/** File name of a skill in the folder layout. */
export const SKILL_FILE = "SKILL.md";

/** Skill names: a letter or digit, then letters, digits, `-`, `_`, `.` (no spaces or slashes). */
const SKILL_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** The directories searched, highest precedence first. */
export function skillDirs(root: string, env: Environment): { dir: string; source: SkillSource }[] {
  return [
    { dir: join(root, ".nyzhi", "skills"), source: "nyzhi" },
    { dir: join(root, ".claude", "skills"), source: "claude" },
    { dir: join(resolveDirs(env).config, "skills"), source: "global" },
  ];
}

/**
 * Finds the skills of a project and the user: in each directory of `skillDirs`, folders holding a
 * `SKILL.md` (Claude Code layout) and flat `<name>.md` files (the older nyzhi layout; a folder
 * wins over a flat file of the same name). The name is the front matter's `name`, else the folder
 * or file stem; the description is the front matter's `description`, else `fallbackDescription`.
 * On a name clash the project's `.nyzhi` wins over `.claude`, and both over the global directory.
 * A file with broken front matter is skipped with a warning naming it.
 */
export async function loadSkills(root: string, env: Environment): Promise<LoadedSkills> {
  const byName = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const { dir, source } of skillDirs(root, env)) {
    for (const skill of await skillsIn(dir, source, warnings)) {
      if (!byName.has(skill.name)) byName.set(skill.name, skill);
    }
  }
  const skills = [...byName.values()].sort((left, right) => compareText(left.name, right.name));
  return { skills, warnings };
}

async function skillsIn(dir: string, source: SkillSource, warnings: string[]): Promise<Skill[]> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  const candidates = new Map<string, string>();
  for (const entry of entries.sort()) {
    if (entry.startsWith(".")) continue;
    const path = join(dir, entry);
    const kind = await stat(path).catch(() => undefined);
    if (kind?.isDirectory()) {
      const skillFile = join(path, SKILL_FILE);
      if (!(await stat(skillFile).catch(() => undefined))?.isFile()) continue;
      const flat = candidates.get(entry);
      if (flat) warnings.push(`warning: ${flat}: shadowed by ${skillFile}; skill skipped`);
      candidates.set(entry, skillFile);
    } else if (kind?.isFile() && entry.endsWith(".md")) {
      const stem = entry.slice(0, -3);
      const folder = candidates.get(stem);
      if (folder) warnings.push(`warning: ${path}: shadowed by ${folder}; skill skipped`);
      else candidates.set(stem, path);
    }
  }
  const skills: Skill[] = [];
  for (const [stem, path] of candidates) {
    const skill = await readSkill(path, stem, source, warnings);
    if (skill) skills.push(skill);
  }
  return skills;
}

async function readSkill(
  path: string,
  stem: string,
  source: SkillSource,
  warnings: string[],
): Promise<Skill | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    warnings.push(`warning: ${path}: cannot read (${errorMessage(error)}); skill skipped`);
    return undefined;
  }
  const parsed = await readFrontMatter(text);
  if (!parsed.ok) {
    warnings.push(`warning: ${path}: invalid front matter (${parsed.reason}); skill skipped`);
    return undefined;
  }
  const declared = singleLine(parsed.data.name);
  let name = stem;
  if (declared !== undefined && SKILL_NAME.test(declared)) name = declared;
  else if (declared !== undefined)
    warnings.push(`warning: ${path}: invalid skill name '${declared}'; using '${stem}'`);
  if (!SKILL_NAME.test(name)) {
    warnings.push(`warning: ${path}: invalid skill name '${name}'; skill skipped`);
    return undefined;
  }
  const description = singleLine(parsed.data.description) ?? fallbackDescription(parsed.body);
  return { name, description, path, source };
}

/** Whether a skill uses the folder layout (and may ship more files beside its `SKILL.md`). */
export function isFolderSkill(skill: Skill): boolean {
  return basename(skill.path) === SKILL_FILE;
}
