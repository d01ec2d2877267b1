import type { McpSession } from "../mcp/mcp-session.js";
import { syncMcpTools } from "../mcp/sync-mcp-tools.js";
import { writeMcpIndex } from "../mcp/write-mcp-index.js";
import type { RoleCatalog } from "../roles/role-catalog.js";
import { toolCatalogue } from "../tools/catalogue/tool-catalogue.js";
import { deferIfMany } from "../tools/deferred/defer-if-many.js";
import { registerWithDeferral, toolsInFullFor } from "../tools/deferred/tools-in-full.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { ToolRegistry } from "../tools/seam/tool-registry.js";
import type { CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

export interface LeadTools {
  /** The lead's registry: the tools most turns use in full, the rest deferred behind `tool_search`. */
  registry: ToolRegistry;
  /** Every tool a child may be offered before its role fences them (the child factory's list). */
  allTools: () => Tool[];
  /** Stops following the MCP servers' tool lists. */
  stopMcpSync: (() => void) | undefined;
}

/** The lead's tools, from the one catalogue (`tools/catalogue/tool-catalogue.ts`), and its children's list. */
export function buildLeadTools(
  options: Pick<
    CreateAgentRuntimeOptions,
    "config" | "tools" | "extraTools" | "team" | "mcp" | "deferredTools"
  >,
  parts: { roles: RoleCatalog; projectRoot: string; canAskUser: boolean; hasSkills: boolean },
): LeadTools {
  const { config, mcp } = options;
  const subagentsEnabled = config.agent.agents.enabled;
  // `read_mcp_resource` only with MCP servers configured: without any it can do nothing.
  const hasMcp = mcp !== undefined && mcp.servers.length > 0;
  const catalogue = toolCatalogue({
    ...(options.tools ? { standard: options.tools } : {}),
    ...(options.extraTools ? { extra: options.extraTools } : {}),
    ...(subagentsEnabled ? { roles: parts.roles } : {}),
    // Team tools: in full for a session started in a team (`--team-name`), else deferred with the rest.
    ...(subagentsEnabled || options.team ? { team: options.team?.isLead === false ? "member" : "lead" } : {}),
    mcpResources: hasMcp,
  });
  const mcpTools = (session: McpSession | undefined) =>
    session ? [...catalogue.mcp, ...session.manager.tools()] : [];
  const registry = new ToolRegistry(options.team ? catalogue.team : []);
  registerWithDeferral(
    registry,
    [...catalogue.standard, ...catalogue.agents, ...(options.team ? [] : catalogue.team), ...catalogue.mcp],
    toolsInFullFor({ kind: "lead", canAskUser: parts.canAskUser }, { hasSkills: parts.hasSkills, hasMcp }),
  );
  if (options.deferredTools?.length) deferIfMany(registry, options.deferredTools);
  let stopMcpSync: (() => void) | undefined;
  if (mcp) {
    const { deferred } = deferIfMany(registry, mcp.manager.tools());
    if (deferred) void writeMcpIndex(parts.projectRoot, mcp.manager.tools());
    stopMcpSync = mcp.manager.onToolsChanged(() => syncMcpTools(registry, mcp.manager.tools(), { deferred }));
  }
  return {
    registry,
    allTools: () => [...catalogue.standard, ...catalogue.agents, ...mcpTools(mcp)],
    stopMcpSync,
  };
}
