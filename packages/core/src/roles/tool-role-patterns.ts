import type { NyzhiConfig } from "@nyzhi/config";

/**
 * Role name → tool-name substrings (case-insensitive) that select the tools of a role with no
 * explicit tool list (seed 003's `TOOL_ROLE_MAPPING`). `read` therefore selects `read`,
 * `todoread`, `notepad_read` and `memory_read`. Roles missing from the table keep every tool.
 */
export type ToolRolePatterns = Readonly<Record<string, readonly string[]>>;

const LOOK = ["read", "grep", "glob", "list_dir", "directory_tree", "file_info", "fuzzy", "tail", "think"];

/** The shipped table, for the specialist roles. `agent.tool_role_patterns` replaces entries by name. */
export const DEFAULT_TOOL_ROLE_PATTERNS: ToolRolePatterns = {
  "code-analyzer": [
    ...LOOK,
    "git_status",
    "git_diff",
    "git_log",
    "git_show",
    "bash",
    "verify",
    "write",
    "architecture",
    "search",
  ],
  "doc-writer": [...LOOK, "write", "edit", "git_log", "git_diff", "git_show", "web_fetch"],
  "file-organizer": [
    ...LOOK,
    "move",
    "copy",
    "create_dir",
    "delete",
    "edit",
    "write",
    "bash",
    "git_status",
    "git_diff",
  ],
  tester: [...LOOK, "write", "edit", "bash", "verify", "git_status", "git_diff", "todo"],
  "architecture-expert": [...LOOK, "architecture", "search"],
};

/**
 * Names seed 003's specialists used for tools nyzhi ships under another name: a pattern equal to
 * one of these selects the tool it names (CodeBuddy's `search_vector_db` is `semantic_search`).
 */
export const TOOL_PATTERN_ALIASES: Readonly<Record<string, string>> = {
  search_vector_db: "semantic_search",
};

/** The table in force: the shipped one with `agent.tool_role_patterns` entries replacing (or adding) roles. */
export function resolveToolRolePatterns(config: Pick<NyzhiConfig, "agent"> | undefined): ToolRolePatterns {
  return { ...DEFAULT_TOOL_ROLE_PATTERNS, ...(config?.agent.tool_role_patterns ?? {}) };
}

/** MCP tools are named `mcp__<server>__<tool>`. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith("mcp__");
}

/**
 * The tools a role's patterns select from `names`, in `names` order: every non-MCP tool whose
 * lower-cased name contains a pattern, plus every MCP tool, each once. When no tool matches a
 * pattern, all non-MCP (core) tools instead. Permission fencing (read-only, deny lists, MCP
 * servers, depth) applies afterwards. Undefined when the table has no entry for the role.
 */
export function selectToolsByPatterns(
  roleName: string,
  names: readonly string[],
  patterns: ToolRolePatterns,
): string[] | undefined {
  const matched = matchedByPatterns(roleName, names, patterns);
  if (matched === undefined) return undefined;
  if (matched.size === 0) return [...new Set(names.filter((name) => !isMcpToolName(name)))];
  return [...new Set(names.filter((name) => matched.has(name) || isMcpToolName(name)))];
}

/**
 * Whether the role's patterns pick its tools (it has an entry and some tool matches it), rather
 * than falling back to every core tool.
 */
export function patternsPickTools(
  roleName: string,
  names: readonly string[],
  patterns: ToolRolePatterns,
): boolean {
  return (matchedByPatterns(roleName, names, patterns)?.size ?? 0) > 0;
}

/** The non-MCP tools of `names` a pattern of the role's entry matches; undefined without an entry. */
function matchedByPatterns(
  roleName: string,
  names: readonly string[],
  patterns: ToolRolePatterns,
): Set<string> | undefined {
  const own = patterns[roleName];
  if (own === undefined) return undefined;
  const lowered = own
    .map((pattern) => pattern.toLowerCase())
    .map((pattern) => TOOL_PATTERN_ALIASES[pattern] ?? pattern)
    .filter((pattern) => pattern !== "");
  return new Set(
    names.filter(
      (name) => !isMcpToolName(name) && lowered.some((pattern) => name.toLowerCase().includes(pattern)),
    ),
  );
}
