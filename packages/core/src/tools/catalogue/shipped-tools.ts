import { RoleCatalog } from "../../roles/role-catalog.js";
import { toolSearchTool } from "../deferred/tool-search-tool.js";
import type { Tool } from "../seam/define-tool.js";
import { toolCatalogue } from "./tool-catalogue.js";

/** Every tool nyzhi itself offers a lead, a teammate or a subagent, by name (for the tests). */
export function shippedTools(): Tool[] {
  const lead = toolCatalogue({ roles: new RoleCatalog(), team: "lead", mcpResources: true });
  const member = toolCatalogue({ team: "member" });
  const tools = [...lead.standard, ...lead.agents, ...lead.team, ...member.team, ...lead.mcp, toolSearchTool];
  return [...new Map(tools.map((tool) => [tool.name, tool])).values()].sort((a, b) =>
    a.name < b.name ? -1 : 1,
  );
}
