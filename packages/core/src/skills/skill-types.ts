/**
 * Where a skill came from, highest precedence first: the project's `.nyzhi/skills`, the project's
 * `.claude/skills` (Claude Code layout), the user's global `<config dir>/skills`.
 */
export type SkillSource = "nyzhi" | "claude" | "global";

/** A skill in the index; its full text is read only when the model calls `load_skill`. */
export interface Skill {
  name: string;
  /** One line shown in the system prompt's skills index. */
  description: string;
  /** Absolute path of `SKILL.md` (folder layout) or of the flat `<name>.md` file. */
  path: string;
  source: SkillSource;
}

export interface LoadedSkills {
  /** Sorted by name; one skill per name. */
  skills: Skill[];
  /** `warning: <file>: …` lines for skills that were skipped or only partly understood. */
  warnings: string[];
}

/** Key of the skills in `ToolContext.services`: a getter returning the loaded list. */
export const SKILLS_SERVICE = "skills";

/** What the runtime puts under `services[SKILLS_SERVICE]`; called on every `load_skill`. */
export type SkillsService = () => readonly Skill[];
