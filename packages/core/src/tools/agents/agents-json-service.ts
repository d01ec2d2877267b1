import { type AgentsJsonScope, agentsJsonLocations } from "../../roles/agents-json/agents-json-paths.js";
import type { RoleCatalog } from "../../roles/role-catalog.js";
import { ToolError } from "../define-tool.js";
import type { ToolContext } from "../tool-types.js";

/** Where the runtime puts the session's `RoleCatalog` in `ToolContext.services`. */
export const ROLE_CATALOG_SERVICE = "roleCatalog";

/** The session's role catalog, if the runtime shares one. */
export function roleCatalogOf(context: ToolContext): RoleCatalog | undefined {
  return context.services[ROLE_CATALOG_SERVICE] as RoleCatalog | undefined;
}

/** The agents.json path of a scope: the catalog's locations, else the tool context's cwd and config dir. */
export function agentsJsonPathFor(context: ToolContext, scope: AgentsJsonScope): string {
  const locations = roleCatalogOf(context)?.locations;
  const paths = agentsJsonLocations({
    projectRoot: locations?.projectRoot ?? context.cwd,
    globalConfigDir: locations?.globalConfigDir ?? context.dirs.config,
  });
  return (scope === "global" ? paths.global : paths.project) as string;
}

/** Only the lead (depth 0) may change the global file: a subagent's choices stay in the project. */
export function refuseGlobalWriteFromSubagent(context: ToolContext, tool: string): void {
  if (context.agent.depth > 0)
    throw new ToolError(
      `${tool} with scope "global" is refused: only the lead agent (depth 0) may write the global agents.json; subagents may use scope "project".`,
    );
}
