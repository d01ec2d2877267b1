import { TEAM_TOOL_NAMES } from "../../teams/team-tool-names.js";
import type { Tool } from "../seam/define-tool.js";
import type { ToolRegistry } from "../seam/tool-registry.js";
import { DEFAULT_DEFER_THRESHOLD } from "./defer-if-many.js";
import { toolSearchTool } from "./tool-search-tool.js";

/**
 * Which built-in tools an agent is offered in full from its first request; the others it may use
 * are deferred: registered and callable by name, listed by name in the system prompt, found and
 * loaded by `tool_search`, and offered in full from their first use (see `ToolRegistry`). Most
 * turns never use git plumbing, file utilities, the notepad, architecture knowledge or team and
 * background-agent administration, and their schemas were a third of every request (issue 32).
 */

/**
 * The built-in tools that may be deferred, in families: the first use (or `tool_search` match) of
 * one loads the rest of its family, as they are used together (`spawn_agent` then `wait`,
 * `team_create` then `spawn_teammate`). Every other tool (read, write, edit, multi_edit,
 * apply_patch, bash, verify, grep, glob, list_dir, semantic_search, web_fetch, todowrite, think;
 * any tool a host or test adds) is always offered in full; MCP tools have their own rule
 * (`deferIfMany`).
 */
export const DEFERRABLE_TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  agents: [
    "spawn_agent",
    "send_input",
    "wait",
    "close_agent",
    "resume_agent",
    "define_agent",
    "remove_agent",
    "list_agents",
    "merge_agent_changes",
    "discard_agent_changes",
  ],
  teams: TEAM_TOOL_NAMES,
  git: ["git_status", "git_diff", "git_log", "git_show", "git_branch", "git_commit", "git_checkout"],
  files: [
    "move_file",
    "copy_file",
    "delete_file",
    "create_dir",
    "file_info",
    "tail_file",
    "directory_tree",
    "fuzzy_find",
  ],
  notepad: ["notepad_read", "notepad_write"],
  todos: ["todoread"],
  architecture: ["get_architecture_knowledge"],
  memory: ["memory_read", "memory_write"],
  interact: ["ask_user"],
  skills: ["load_skill"],
  delegation: ["task"],
  mcp: ["read_mcp_resource"],
};

/**
 * Of the deferrable tools, those most of the lead's turns use (and `ask_user` when the host can
 * ask: not headless). Starting subagents and collecting them stays; steering, closing and resuming
 * them (`send_input`, `close_agent`, `resume_agent`) loads with them on first use.
 */
export const LEAD_TOOLS_IN_FULL: readonly string[] = [
  "task",
  "spawn_agent",
  "wait",
  "memory_read",
  "memory_write",
];

/** Of the deferrable tools, those most turns of a child use whose role takes every tool. */
export const CHILD_TOOLS_IN_FULL: readonly string[] = ["memory_read"];

/** What a built-in role's turns use beyond `CHILD_TOOLS_IN_FULL` (roles that take every tool). */
export const ROLE_TOOLS_IN_FULL: Readonly<Record<string, readonly string[]>> = {
  debugger: ["git_diff", "git_log", "git_show"],
  "build-fixer": ["git_diff"],
  "code-simplifier": ["git_diff"],
  worker: ["git_status", "git_diff"],
  "deep-executor": ["git_status", "git_diff", "task"],
};

const groupOf = new Map(
  Object.entries(DEFERRABLE_TOOL_GROUPS).flatMap(([group, names]) =>
    names.map((name) => [name, group] as const),
  ),
);

/**
 * The deferrable tools `agent` keeps in full: undefined (every tool) for a child whose role picks
 * its own tools (an allow list, or tool-role patterns that matched), as those are the tools it
 * uses, and for the `default` role, which has no profile (it is what a spawn without a role
 * gets). `load_skill` joins when the session has skills, `read_mcp_resource` when MCP servers are on.
 */
export function toolsInFullFor(
  agent: { kind: "lead"; canAskUser: boolean } | { kind: "child"; role: string; picksOwnTools: boolean },
  options: { hasSkills: boolean; hasMcp: boolean },
): ReadonlySet<string> | undefined {
  if (agent.kind === "child" && (agent.picksOwnTools || agent.role === "default")) return undefined;
  const names =
    agent.kind === "lead"
      ? [...LEAD_TOOLS_IN_FULL, ...(agent.canAskUser ? ["ask_user"] : [])]
      : [...CHILD_TOOLS_IN_FULL, ...(ROLE_TOOLS_IN_FULL[agent.role] ?? [])];
  if (options.hasSkills) names.push("load_skill");
  if (options.hasMcp) names.push("read_mcp_resource");
  return new Set(names);
}

/**
 * Registers `tools`: every one in full when `inFull` is undefined or there are at most 15 of them
 * (deferring from a small set saves little); otherwise the deferrable ones not in `inFull` deferred
 * (with `tool_search`), the rest in full. Returns whether any were deferred.
 */
export function registerWithDeferral(
  registry: ToolRegistry,
  tools: readonly Tool[],
  inFull: ReadonlySet<string> | undefined,
): { deferred: boolean } {
  if (!inFull || tools.length <= DEFAULT_DEFER_THRESHOLD) {
    for (const tool of tools) registry.register(tool);
    return { deferred: false };
  }
  let deferred = false;
  for (const tool of tools) {
    const group = groupOf.get(tool.name);
    if (group === undefined || inFull.has(tool.name)) registry.register(tool);
    else {
      registry.registerDeferred(tool, { group });
      deferred = true;
    }
  }
  if (deferred && !registry.has(toolSearchTool.name)) registry.register(toolSearchTool);
  return { deferred };
}
