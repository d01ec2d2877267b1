import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { compareText } from "@nyzhi/config";
import { z } from "zod";
import { isFolderSkill, SKILL_FILE } from "../../skills/load-skills.js";
import { readFrontMatter } from "../../skills/read-front-matter.js";
import { SKILLS_SERVICE, type Skill } from "../../skills/skill-types.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";

/** Most files listed from a skill's folder. */
const MAX_LISTED_FILES = 50;
/** How deep the folder listing goes. */
const MAX_LISTING_DEPTH = 3;

const inputSchema = z.lazy(() =>
  z.object({
    name: z.string().min(1).describe("Name of the skill, as listed under Available Skills."),
  }),
);

/**
 * Returns a skill's full instructions. The skill comes from the runtime's list (never a path the
 * model chose), so the tool declares no paths: the skill directories were chosen by the user.
 */
export const loadSkillTool = defineShippedTool({
  name: "load_skill",
  description:
    "Load the full instructions of a skill listed under Available Skills. Call it before starting a task that matches the skill's description.",
  inputSchema,
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const skills = skillsOf(context);
    const skill = skills.find((candidate) => candidate.name === input.name);
    if (!skill) {
      const names = skills.map((candidate) => candidate.name);
      throw new ToolError(
        names.length === 0
          ? `Skill '${input.name}' not found: no skills are available.`
          : `Skill '${input.name}' not found. Available skills: ${names.join(", ")}`,
      );
    }
    const parsed = await readFrontMatter(await readFile(skill.path, "utf8"));
    if (!parsed.ok) throw new ToolError(`Skill '${skill.name}' has invalid front matter: ${parsed.reason}`);
    const sections = [`# Skill: ${skill.name}`, parsed.body.trim()];
    if (isFolderSkill(skill)) {
      const directory = dirname(skill.path);
      const files = await listFiles(directory);
      if (files.length > 0) {
        sections.push(
          [
            "## Files in this skill",
            `Base directory: ${directory}`,
            ...files.map((file) => `- ${file}`),
            ...(files.length >= MAX_LISTED_FILES ? ["- … (more files not listed)"] : []),
          ].join("\n"),
        );
      }
    }
    return sections.filter((section) => section !== "").join("\n\n");
  },
});

function skillsOf(context: ToolContext): readonly Skill[] {
  const service = context.services[SKILLS_SERVICE];
  if (typeof service === "function") return (service as () => readonly Skill[])();
  throw new ToolError("Skills are not available in this session.");
}

/** Files under `directory` other than `SKILL.md`, relative and sorted, skipping dot entries. */
async function listFiles(directory: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (current: string, depth: number): Promise<void> => {
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    entries.sort((left, right) => compareText(left.name, right.name));
    for (const entry of entries) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_LISTING_DEPTH) await walk(path, depth + 1);
      } else if (!(current === directory && entry.name === SKILL_FILE)) {
        files.push(relative(directory, path));
      }
    }
  };
  await walk(directory, 1);
  return files;
}
