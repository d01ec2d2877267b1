import { readMcpResourceTool } from "../../mcp/read-mcp-resource-tool.js";
import type { RoleCatalog } from "../../roles/role-catalog.js";
import { discardAgentChangesTool, mergeAgentChangesTool } from "../agents/agent-changes-tools.js";
import { defineAgentTool } from "../agents/define-agent-tool.js";
import { lifecycleTools } from "../agents/lifecycle-tools.js";
import { listAgentsTool } from "../agents/list-agents-tool.js";
import { removeAgentTool } from "../agents/remove-agent-tool.js";
import { createTaskTool } from "../agents/task-tool.js";
import { getArchitectureKnowledgeTool } from "../architecture/get-architecture-knowledge-tool.js";
import type { Tool } from "../seam/define-tool.js";
import { leadTeamTools, memberTeamTools } from "../teams/team-tools.js";
import { standardTools } from "./standard-tools.js";

export interface ToolCatalogueOptions {
  /** Replaces the standard tools (tests, library programs); default `standardTools()`. */
  standard?: readonly Tool[];
  /** Added after the standard tools (a library program's own). */
  extra?: readonly Tool[];
  /** With subagents on: the roles `spawn_agent` and `task` offer. Absent: no agent tools. */
  roles?: RoleCatalog;
  /** Which team tools: a team lead's (and a session's that may start a team) or a teammate's; absent: none. */
  team?: "lead" | "member";
  /** `read_mcp_resource`, for a session with MCP servers configured. */
  mcpResources?: boolean;
}

/** The tools nyzhi offers, by section: the runtime, the child factory and the tests read it here. */
export interface ToolCatalogue {
  /** Files, search, planning, shell, git, web, memory, skills, `ask_user`, then the extra tools. */
  standard: Tool[];
  /** spawn_agent and the lifecycle tools, task, agents.json, worktree changes, architecture knowledge. */
  agents: Tool[];
  team: Tool[];
  /** `read_mcp_resource` when asked for (the servers' own tools join at run time). */
  mcp: Tool[];
}

/** The one place the list of shipped tools is assembled. */
export function toolCatalogue(options: ToolCatalogueOptions = {}): ToolCatalogue {
  const { roles } = options;
  return {
    standard: [...(options.standard ?? standardTools()), ...(options.extra ?? [])],
    agents: roles
      ? [
          ...lifecycleTools(() => roles.enabled()),
          createTaskTool(roles),
          defineAgentTool,
          removeAgentTool,
          listAgentsTool,
          mergeAgentChangesTool,
          discardAgentChangesTool,
          getArchitectureKnowledgeTool,
        ]
      : [],
    team: options.team === "member" ? memberTeamTools() : options.team === "lead" ? leadTeamTools() : [],
    mcp: options.mcpResources ? [readMcpResourceTool] : [],
  };
}
