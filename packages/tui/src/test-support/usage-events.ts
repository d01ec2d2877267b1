import type { AgentEventOf, AgentTag, SubtreeTotal, UsageFigures } from "@nyzhi/core";

type Tokens = AgentEventOf<"usage">["usage"];

/**
 * A `usage` event as core sends it: one step's tokens and cost, with core's totals (the agent's own
 * and the session's, the subtree chain); unless given, the totals are that step alone (no chain).
 */
export function usageEvent(
  agent: AgentTag,
  step: number,
  usage: Tokens,
  costUsd: number,
  totals: {
    agentTotal?: { usage: Tokens; costUsd: number };
    sessionTotal?: UsageFigures;
    subtreeTotals?: SubtreeTotal[];
  } = {},
): AgentEventOf<"usage"> {
  return {
    type: "usage",
    agent,
    step,
    usage,
    costUsd,
    agentTotal: totals.agentTotal ?? { usage, costUsd },
    subtreeTotals: totals.subtreeTotals ?? [],
    sessionTotal: totals.sessionTotal ?? { usage, costUsd, embeddingTokens: 0 },
  };
}
