import { readMcpResourceTool } from "../../mcp/read-mcp-resource-tool.js";
import { RoleCatalog } from "../../roles/role-catalog.js";
import { defineAgentTool } from "../agents/define-agent-tool.js";
import { lifecycleTools } from "../agents/lifecycle-tools.js";
import { listAgentsTool } from "../agents/list-agents-tool.js";
import { removeAgentTool } from "../agents/remove-agent-tool.js";
import { createTaskTool } from "../agents/task-tool.js";
import { getArchitectureKnowledgeTool } from "../architecture/get-architecture-knowledge-tool.js";
import { toolSearchTool } from "../deferred/tool-search-tool.js";
import type { Tool } from "../seam/define-tool.js";
import { leadTeamTools, memberTeamTools } from "../teams/team-tools.js";
import { builtinTools } from "./builtin-tools.js";

/** Every tool nyzhi itself offers a lead, a teammate or a subagent. */
export function shippedTools(): Tool[] {
  const tools = [
    ...builtinTools(),
    ...lifecycleTools([]),
    createTaskTool(new RoleCatalog()),
    defineAgentTool,
    removeAgentTool,
    listAgentsTool,
    getArchitectureKnowledgeTool,
    ...leadTeamTools(),
    ...memberTeamTools(),
    readMcpResourceTool,
    toolSearchTool,
  ];
  return [...new Map(tools.map((tool) => [tool.name, tool])).values()].sort((a, b) =>
    a.name < b.name ? -1 : 1,
  );
}
