/**
 * Tool lists in role definitions may use Claude Code's tool names (agent files copied from
 * `.claude/agents/` work unchanged) or ours. This maps them onto nyzhi's tool names.
 */

/** Tool names nyzhi knows (built-in and planned); a name outside it only earns a warning. */
export const KNOWN_TOOL_NAMES: ReadonlySet<string> = new Set([
  "read",
  "write",
  "edit",
  "multi_edit",
  "apply_patch",
  "glob",
  "grep",
  "list_dir",
  "directory_tree",
  "file_info",
  "delete_file",
  "move_file",
  "copy_file",
  "create_dir",
  "tail_file",
  "fuzzy_find",
  "semantic_search",
  "todowrite",
  "todoread",
  "think",
  "notepad_read",
  "notepad_write",
  "bash",
  "verify",
  "git_status",
  "git_diff",
  "git_log",
  "git_show",
  "git_branch",
  "git_commit",
  "git_checkout",
  "web_fetch",
  "ask_user",
  "tool_search",
  "memory_read",
  "memory_write",
  "load_skill",
  "spawn_agent",
  "send_input",
  "wait",
  "close_agent",
  "resume_agent",
]);

/** Claude Code tool name → ours. An empty list means there is no equivalent. */
const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ["read"],
  Write: ["write"],
  Edit: ["edit"],
  MultiEdit: ["multi_edit"],
  Bash: ["bash"],
  Grep: ["grep"],
  Glob: ["glob"],
  LS: ["list_dir"],
  WebFetch: ["web_fetch"],
  TodoWrite: ["todowrite", "todoread"],
  TodoRead: ["todoread"],
  WebSearch: [],
  NotebookRead: [],
  NotebookEdit: [],
  Task: [],
};

const UNSUPPORTED_REASON: Readonly<Record<string, string>> = {
  WebSearch: "nyzhi has no web search tool",
  NotebookRead: "nyzhi has no notebook tools",
  NotebookEdit: "nyzhi has no notebook tools",
  Task: "subagents get spawn tools from the runtime, not from a role's tool list",
};

export interface NormalizedToolNames {
  names: string[];
  /** One sentence per dropped or unknown name, without the file (the caller adds it). */
  problems: string[];
}

/**
 * Maps a role's tool list onto nyzhi names: Claude Code names are translated, `mcp__*` names and
 * `*` patterns pass unchanged, unknown names are kept (they may match a tool added later) with a
 * problem noted. Claude Code's argument-scoped entries (`Bash(git diff:*)`) are dropped rather
 * than widened to the whole tool. `list` names the key in messages (`tools`, `disallowed_tools`).
 */
export function normalizeToolNames(entries: readonly string[], list: string): NormalizedToolNames {
  const names: string[] = [];
  const problems: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    const mapped = CLAUDE_TOOL_NAMES[entry];
    if (mapped !== undefined) {
      if (mapped.length === 0) problems.push(`${list}: dropped '${entry}' (${UNSUPPORTED_REASON[entry]})`);
      for (const name of mapped) add(name);
      continue;
    }
    if (/^\w+\(.*\)$/.test(entry)) {
      problems.push(`${list}: dropped '${entry}' (argument-scoped tool entries are not supported)`);
      continue;
    }
    if (entry.startsWith("mcp__") || entry.includes("*")) {
      add(entry);
      continue;
    }
    const lower = entry.toLowerCase();
    if (!KNOWN_TOOL_NAMES.has(lower)) problems.push(`${list}: unknown tool '${entry}' (kept as given)`);
    add(KNOWN_TOOL_NAMES.has(lower) ? lower : entry);
  }
  return { names, problems };
}

/** Splits Claude Code's `tools: Read, Grep` string form; a YAML list is taken as is. */
export function splitToolList(value: string | readonly string[]): string[] {
  if (typeof value !== "string") return [...value];
  return value
    .replace(/^\[|\]$/g, "")
    .split(",")
    .map((item) => item.trim().replace(/^["']|["']$/g, ""))
    .filter((item) => item !== "");
}
