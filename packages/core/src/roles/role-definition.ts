import type { ConfigLayerName } from "@nyzhi/config";
import type { BudgetSpec } from "../budgets/budget-types.js";

/**
 * Where a role definition came from. `nyz agents` shows it, and warnings name it. New kinds (an
 * `agents.json`, a plugin) extend this union; consumers switch on `kind`.
 */
export type RoleSource =
  | { kind: "built-in" }
  /** `[agent.agents.roles.<name>]`; `scope` is the highest config layer that set a key of it. */
  | { kind: "config"; scope?: Exclude<ConfigLayerName, "default">; path?: string }
  /** A Markdown agent file under `<project>/.nyzhi/agents/` or `<project>/.claude/agents/`. */
  | { kind: "file"; path: string; scope: "project" }
  /** An entry of `<config dir>/agents.json` (global) or `<project>/.nyzhi/agents.json` (project). */
  | { kind: "agents-json"; scope: "global" | "project"; path: string }
  /** Synthesized for a name nobody defined: behaves like `default`. */
  | { kind: "fallback" };

/**
 * A subagent role as data: what a spawned agent is told, which model it runs on and which tools it
 * may use. Built-in roles, config roles and agent files all become this one shape; `applyRole`
 * turns it into the child agent's settings.
 */
export interface RoleDefinition {
  /** The name `spawn_agent` is called with (`agent_type`). */
  readonly name: string;
  /** One line shown to the parent model and in `nyz agents`. */
  readonly description: string;
  /** Replaces the generic sub-agent prompt when set. */
  readonly systemPrompt?: string;
  /** `provider/model` or a tier alias (`sonnet`); undefined inherits the layers below. */
  readonly model?: string;
  /** Model requests per child turn; undefined means the default (50). */
  readonly maxSteps?: number;
  /** Enforced: a read-only role is never offered a tool that mutates, whatever its lists say. */
  readonly readOnly: boolean;
  /** Tool-name patterns (`*` globs) the role may use; undefined means every available tool. */
  readonly allowedTools?: readonly string[];
  /** Tool-name patterns removed after `allowedTools`. */
  readonly disallowedTools?: readonly string[];
  /** A disabled role is listed but cannot be spawned. */
  readonly enabled: boolean;
  /** Set when a config toggle disabled a role defined elsewhere (a file, agents.json). */
  readonly disabledBy?: RoleSource;
  /** MCP servers (by `mcp.servers` name) whose tools the role may use; undefined means all. */
  readonly mcpServers?: readonly string[];
  /**
   * Skills (by name, `*` for all) the child inherits from its parent: listed in its prompt and
   * loadable with `load_skill`. Undefined means none — only `general-purpose` inherits them all.
   */
  readonly skills?: readonly string[];
  /**
   * Each turn of the role's agents gets a `<codebase_context>` block from the code index (as the
   * lead's turns do when `index.auto_context` is on). Undefined means no.
   */
  readonly autoContext?: boolean;
  /** The default budget of the role's agents (a spawn's own `budget` replaces it). */
  readonly budget?: BudgetSpec;
  /** `worktree`: each of the role's agents works in its own git worktree and branch. */
  readonly isolation?: "shared" | "worktree";
  readonly source: RoleSource;
  /** Definitions of the same name this one shadows, highest precedence first. */
  readonly overrides?: readonly RoleSource[];
}

/** The tools that only look: the allow list of the read-only built-in roles. */
export const READ_TOOLS: readonly string[] = [
  "read",
  "glob",
  "grep",
  "list_dir",
  "directory_tree",
  "file_info",
  "tail_file",
  "fuzzy_find",
  "semantic_search",
  "git_status",
  "git_diff",
  "git_log",
  "git_show",
  "git_branch",
  "think",
];

/** Model requests per child turn when the role sets no cap. */
export const DEFAULT_ROLE_MAX_STEPS = 50;

/** The role used when `spawn_agent` names none. */
export const DEFAULT_ROLE_NAME = "default";

/** A short, human-readable label for a source (`built-in`, `config (project)`, `.nyzhi/agents/x.md`). */
export function describeRoleSource(source: RoleSource): string {
  switch (source.kind) {
    case "built-in":
      return "built-in";
    case "config":
      return source.scope ? `config (${source.scope})` : "config";
    case "file":
      return source.path;
    case "agents-json":
      return `agents.json (${source.scope})`;
    case "fallback":
      return "fallback";
  }
}
