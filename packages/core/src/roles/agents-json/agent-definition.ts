import { findModel } from "@nyzhi/provider";

/**
 * One entry of an `agents.json` file (seed 004's `AgentDefinition`), keyed by the agent's name:
 * `{ "researcher": { "description": …, "prompt": …, "tools": [...], "model": "sonnet" } }`.
 */
export interface AgentDefinition {
  /** When to use the agent; shown to the parent model. */
  description: string;
  /** The agent's system prompt. */
  prompt: string;
  /** Tools it may use (ours or Claude Code's names); omitted means every tool the parent has. */
  tools?: string[];
  /** `inherit`, a tier alias (`sonnet`, `opus`, `haiku`) or a known model id; omitted means inherit. */
  model?: string;
  /** Each of its turns gets a `<codebase_context>` block from the code index; omitted means no. */
  auto_context?: boolean;
  /** Default budget of its agents: `{ usd, tokens, minutes, scope: "agent" | "subtree" }`. */
  budget?: { usd?: number; tokens?: number; minutes?: number; scope?: "agent" | "subtree" };
  /** `worktree`: each of its agents works in its own git worktree and branch. */
  isolation?: "shared" | "worktree";
}

/** Names an agents.json entry may have. */
export const AGENT_NAME_PATTERN = /^[a-z0-9_-]+$/;

/** Seed 004's model names; the resolver maps the aliases onto our tiers (opus → high …). */
export const AGENT_TIER_ALIASES = ["sonnet", "opus", "haiku"] as const;

/** Whether `model` is `inherit`, a tier alias or a model id the registry knows (`id` or `provider/id`). */
export function isKnownAgentModel(model: string): boolean {
  return (
    model === "inherit" ||
    (AGENT_TIER_ALIASES as readonly string[]).includes(model) ||
    findModel(model) !== undefined
  );
}

/**
 * Checks a definition before it is written, returning one sentence per problem (empty when it is
 * fine). `define_agent` refuses the write when there is any.
 */
export function agentDefinitionProblems(
  name: string,
  definition: { [Key in keyof AgentDefinition]?: AgentDefinition[Key] | undefined },
): string[] {
  const problems: string[] = [];
  if (!AGENT_NAME_PATTERN.test(name))
    problems.push(
      `name '${name}' is invalid: use only lowercase letters, digits, '-' and '_' (pattern [a-z0-9_-]+)`,
    );
  if (!definition.description?.trim()) problems.push("description must be a non-empty string");
  if (!definition.prompt?.trim()) problems.push("prompt must be a non-empty string");
  if (definition.tools?.some((tool) => !tool.trim())) problems.push("tools must be non-empty tool names");
  if (definition.model !== undefined && !isKnownAgentModel(definition.model.trim()))
    problems.push(
      `model '${definition.model}' is unknown: use inherit, sonnet, opus, haiku, or a model id listed by \`nyz models\``,
    );
  return problems;
}
