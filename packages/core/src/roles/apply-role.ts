import { filterToolNames } from "../tools/seam/tool-registry.js";
import { GENERIC_SUBAGENT_PROMPT } from "./built-in/default-role.js";
import { DEFAULT_ROLE_MAX_STEPS, type RoleDefinition } from "./role-definition.js";
import { selectToolsByPatterns, type ToolRolePatterns } from "./tool-role-patterns.js";

/** A tool as fencing needs to see it (a `Tool` fits). */
export interface FenceableTool {
  name: string;
  mutates: boolean;
}

export interface ApplyRoleOptions {
  /** The model the parent agent runs on: the lowest layer. */
  parentModel: string;
  /** `agent.agents.subagent_model`: every subagent's model unless its role names one. */
  subagentModel?: string | undefined;
  /** Session overrides by role name (`/subagent-config set <role> <model>`): the highest layer. */
  sessionOverrides?: Readonly<Record<string, string>> | undefined;
  /** The parent's step cap; a child never gets more model requests per turn than this. */
  parentMaxSteps?: number | undefined;
  /** Tools the child could be given before fencing (the parent's registry for subagents). */
  availableTools: readonly FenceableTool[];
  /** Tool-role mapping for roles without `allowedTools` (see `tool-role-patterns.ts`). */
  toolRolePatterns?: ToolRolePatterns | undefined;
}

/** Which layer chose the child's model, for logs and `/subagent-config`. */
export type ModelLayer = "parent" | "subagent-model" | "role" | "session-override";

/** Everything a role decides about a spawned agent. */
export interface AppliedRole {
  /** Agent label: `sub-agent/<role>`. */
  name: string;
  role: string;
  systemPrompt: string;
  /** Model requests per turn. */
  maxSteps: number;
  model: string;
  modelLayer: ModelLayer;
  /** Tools the child may see and call, in `availableTools` order. */
  toolNames: string[];
  /** Tools the lists allowed but the role's read-only flag removed (log them). */
  droppedByReadOnly: string[];
}

/**
 * Turns a role into a child agent's settings. Model layers, lowest first: parent model,
 * `subagent_model`, the role's model, the session override for the role's name. Tools: the
 * role's MCP servers (when listed), then `allowedTools` (undefined = all), minus
 * `disallowedTools`, both with `*` globs — and a read-only role never gets a tool that mutates.
 */
export function applyRole(role: RoleDefinition, options: ApplyRoleOptions): AppliedRole {
  const { model, modelLayer } = chooseModel(role, options);
  const roleCap = role.maxSteps ?? DEFAULT_ROLE_MAX_STEPS;
  const maxSteps = options.parentMaxSteps === undefined ? roleCap : Math.min(roleCap, options.parentMaxSteps);
  const { toolNames, droppedByReadOnly } = fenceTools(role, options.availableTools, {
    patterns: options.toolRolePatterns,
  });
  return {
    name: `sub-agent/${role.name}`,
    role: role.name,
    systemPrompt: role.systemPrompt ?? GENERIC_SUBAGENT_PROMPT,
    maxSteps,
    model,
    modelLayer,
    toolNames,
    droppedByReadOnly,
  };
}

function chooseModel(
  role: RoleDefinition,
  options: ApplyRoleOptions,
): { model: string; modelLayer: ModelLayer } {
  const override = options.sessionOverrides?.[role.name];
  if (override) return { model: override, modelLayer: "session-override" };
  if (role.model) return { model: role.model, modelLayer: "role" };
  if (options.subagentModel) return { model: options.subagentModel, modelLayer: "subagent-model" };
  return { model: options.parentModel, modelLayer: "parent" };
}

/**
 * The role's tool fence over `available`; see `applyRole`. A role without `allowedTools` whose
 * name has an entry in `patterns` gets the tools the entry selects (plus MCP tools) as its allow
 * list; the permission fence (MCP servers, deny list, read-only) then applies as usual.
 */
export function fenceTools(
  role: Pick<RoleDefinition, "allowedTools" | "disallowedTools" | "readOnly" | "mcpServers"> & {
    name?: string;
  },
  available: readonly FenceableTool[],
  options: { patterns?: ToolRolePatterns | undefined } = {},
): { toolNames: string[]; droppedByReadOnly: string[] } {
  const allowedTools =
    role.allowedTools ??
    (role.name !== undefined && options.patterns
      ? selectToolsByPatterns(
          role.name,
          available.map((tool) => tool.name),
          options.patterns,
        )
      : undefined);
  const servers = role.mcpServers;
  const candidates = available
    .map((tool) => tool.name)
    .filter(
      (name) =>
        servers === undefined ||
        !name.startsWith("mcp__") ||
        servers.some((server) => name.startsWith(`mcp__${server}__`)),
    );
  const fenced = new Set(
    filterToolNames(candidates, { allowed: allowedTools, disallowed: role.disallowedTools }),
  );
  const toolNames: string[] = [];
  const droppedByReadOnly: string[] = [];
  for (const tool of available) {
    if (!fenced.has(tool.name)) continue;
    if (role.readOnly && tool.mutates) droppedByReadOnly.push(tool.name);
    else toolNames.push(tool.name);
  }
  return { toolNames, droppedByReadOnly };
}
