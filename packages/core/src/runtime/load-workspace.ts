import {
  type ConfigOrigins,
  type Environment,
  loadRules,
  type NyzhiConfig,
  resolveDirs,
} from "@nyzhi/config";
import type { PromptFragment } from "../agent-loop/system-prompt.js";
import { memoryPromptFragment, projectMemoryExcerpt } from "../memory/memory-prompt.js";
import { RoleCatalog } from "../roles/role-catalog.js";
import { loadSkills } from "../skills/load-skills.js";
import type { Skill } from "../skills/skill-types.js";
import { skillsIndexFragment } from "../skills/skills-index-fragment.js";

/** What a host reads from the project before it builds the runtime. */
export interface LoadedWorkspace {
  rules: string | undefined;
  roles: RoleCatalog;
  skills: Skill[];
  /** Memory and the skills index, for `createAgentRuntime({ fragments })`. */
  fragments: PromptFragment[];
  /** Project memory excerpt for subagent briefings (first 20 lines). */
  projectMemory: () => Promise<string | undefined>;
  /** Skipped files and other problems, one line each, for the user. */
  warnings: string[];
}

/** Loads rules, roles (built-in, config, agents.json, agent files), skills and memory for a project root. */
export async function loadWorkspace(options: {
  root: string;
  env: Environment;
  config: NyzhiConfig;
  origins?: ConfigOrigins;
}): Promise<LoadedWorkspace> {
  const { root, env, config } = options;
  const dirs = resolveDirs(env);
  const [rules, roles, skills, memory] = await Promise.all([
    loadRules(root),
    RoleCatalog.load({ config, origins: options.origins, projectRoot: root, globalConfigDir: dirs.config }),
    loadSkills(root, env),
    memoryPromptFragment({ root, dirs, autoMemory: config.memory.auto_memory }),
  ]);
  return {
    rules: rules.text,
    roles,
    skills: skills.skills,
    fragments: [memory, skillsIndexFragment(skills.skills)],
    projectMemory: async () =>
      config.memory.auto_memory ? (await projectMemoryExcerpt(root, dirs, 20)) || undefined : undefined,
    warnings: [
      ...rules.warnings,
      ...roles.warnings.map((warning) => `warning: ${warning.message}`),
      ...skills.warnings,
    ],
  };
}
