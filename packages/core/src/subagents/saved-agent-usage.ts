import { addUsage, emptyUsage, type Usage } from "@nyzhi/provider";
import type { SavedAgentThread } from "../saved-sessions/session-types.js";

/** Tokens and cost (USD) of one agent or subtree. */
export interface UsageAndCost {
  usage: Usage;
  costUsd: number;
}

const COUNTS = ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"] as const;

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** A saved usage field as a `Usage`; undefined when absent or not one (a hand-edited file). */
function readUsage(value: unknown): Usage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const fields = value as Record<string, unknown>;
  if (!COUNTS.every((key) => isCount(fields[key]))) return undefined;
  const usage: Usage = {
    inputTokens: fields.inputTokens as number,
    outputTokens: fields.outputTokens as number,
    cacheReadTokens: fields.cacheReadTokens as number,
    cacheWriteTokens: fields.cacheWriteTokens as number,
  };
  if (isCount(fields.reasoningTokens)) usage.reasoningTokens = fields.reasoningTokens;
  return usage;
}

/** An agent's own saved usage; zero for sessions saved before usage was kept. */
export function savedOwnUsage(entry: SavedAgentThread): UsageAndCost {
  return {
    usage: readUsage(entry.usage) ?? emptyUsage(),
    costUsd: isCount(entry.costUsd) ? entry.costUsd : 0,
  };
}

/** The agent's saved subtree usage; its own usage when the file has none. */
function savedSubtreeUsage(entry: SavedAgentThread): UsageAndCost {
  const usage = readUsage(entry.subtreeUsage);
  if (!usage) return savedOwnUsage(entry);
  return { usage, costUsd: isCount(entry.subtreeCostUsd) ? entry.subtreeCostUsd : 0 };
}

/** `left − right`, field by field, never below zero. */
function subtractUsage(left: UsageAndCost, right: UsageAndCost): UsageAndCost {
  const usage = emptyUsage();
  for (const key of COUNTS) usage[key] = Math.max(0, left.usage[key] - right.usage[key]);
  if (left.usage.reasoningTokens !== undefined) {
    usage.reasoningTokens = Math.max(0, left.usage.reasoningTokens - (right.usage.reasoningTokens ?? 0));
  }
  // Sums of floats: a rounding remainder is not a forgotten agent's cost.
  const costUsd = left.costUsd - right.costUsd;
  return { usage, costUsd: costUsd > 1e-9 ? costUsd : 0 };
}

/**
 * Usage a saved subtree holds beyond its saved agents: descendants forgotten (retention cap) before
 * the save. Keyed by the agent they hang under, as `AgentManager` keeps retired usage, so a restored
 * agent's subtree total is the saved one.
 */
export function forgottenUsageByAgent(saved: Record<string, SavedAgentThread>): Map<string, UsageAndCost> {
  const entries = Object.values(saved);
  const children = new Map<string, SavedAgentThread[]>();
  for (const entry of entries) children.set(entry.parentId, [...(children.get(entry.parentId) ?? []), entry]);
  const forgotten = new Map<string, UsageAndCost>();
  for (const entry of entries) {
    if (readUsage(entry.subtreeUsage) === undefined) continue;
    let known = savedOwnUsage(entry);
    for (const child of children.get(entry.agentId) ?? []) {
      const childUsage = savedSubtreeUsage(child);
      known = { usage: addUsage(known.usage, childUsage.usage), costUsd: known.costUsd + childUsage.costUsd };
    }
    const rest = subtractUsage(savedSubtreeUsage(entry), known);
    if (rest.costUsd > 0 || COUNTS.some((key) => rest.usage[key] > 0)) forgotten.set(entry.agentId, rest);
  }
  return forgotten;
}
