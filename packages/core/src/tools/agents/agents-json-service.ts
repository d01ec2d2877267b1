import { type AgentsJsonScope, agentsJsonLocations } from "../../roles/agents-json/agents-json-paths.js";
import type { RoleCatalog } from "../../roles/role-catalog.js";
import { ToolError } from "../seam/define-tool.js";
import { type PathUse, projectRootOf, type ToolContext } from "../seam/tool-types.js";

/** Where the runtime puts the session's `RoleCatalog` in `ToolContext.services`. */
export const ROLE_CATALOG_SERVICE = "roleCatalog";

/** The session's role catalog, if the runtime shares one. */
export function roleCatalogOf(context: ToolContext): RoleCatalog | undefined {
  return context.services[ROLE_CATALOG_SERVICE] as RoleCatalog | undefined;
}

/** The agents.json path of a scope: the catalog's locations, else the tool context's project root and config dir. */
export function agentsJsonPathFor(context: ToolContext, scope: AgentsJsonScope): string {
  const locations = roleCatalogOf(context)?.locations;
  const paths = agentsJsonLocations({
    projectRoot: locations?.projectRoot ?? projectRootOf(context),
    globalConfigDir: locations?.globalConfigDir ?? context.dirs.config,
  });
  return (scope === "global" ? paths.global : paths.project) as string;
}

/**
 * The write `define_agent` / `remove_agent` declare, so the sandbox, deny rules and trust judge it
 * before the call runs: the project file like any workspace file; the global one as a file of
 * nyzhi's config dir (refused by a read-only sandbox, asked for by trust modes that auto-approve
 * only workspace edits).
 */
export function agentsJsonWrite(context: ToolContext, scope: AgentsJsonScope = "project"): PathUse {
  const path = agentsJsonPathFor(context, scope);
  return scope === "global" ? { path, access: "write", configFile: true } : { path, access: "write" };
}

/** The agents.json path of a scope, checked against the sandbox again as the tool runs. */
export async function checkedAgentsJsonPath(context: ToolContext, scope: AgentsJsonScope): Promise<string> {
  const use = agentsJsonWrite(context, scope);
  await context.paths.resolve(use.path, "write", use.configFile ? { configFile: true } : {});
  return use.path;
}

/** Only the lead (depth 0) may change the global file: a subagent's choices stay in the project. */
export function refuseGlobalWriteFromSubagent(context: ToolContext, tool: string): void {
  if (context.agent.depth > 0)
    throw new ToolError(
      `${tool} with scope "global" is refused: only the lead agent (depth 0) may write the global agents.json; subagents may use scope "project".`,
    );
}
