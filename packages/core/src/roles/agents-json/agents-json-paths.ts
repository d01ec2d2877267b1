import { join } from "node:path";

/** Which agents.json a definition lives in. */
export type AgentsJsonScope = "global" | "project";

/** The project file, relative to the project root. */
export const PROJECT_AGENTS_JSON = ".nyzhi/agents.json";

/** Where the two agents.json files are; a missing location means that layer is not read. */
export interface AgentsJsonLocations {
  /** `<config dir>/agents.json` (`resolveDirs(env).config`). */
  global?: string | undefined;
  /** `<project>/.nyzhi/agents.json`. */
  project?: string | undefined;
}

export function agentsJsonLocations(options: {
  projectRoot?: string | undefined;
  globalConfigDir?: string | undefined;
}): AgentsJsonLocations {
  return {
    global: options.globalConfigDir ? join(options.globalConfigDir, "agents.json") : undefined,
    project: options.projectRoot ? join(options.projectRoot, PROJECT_AGENTS_JSON) : undefined,
  };
}
