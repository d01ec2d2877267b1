import { type AgentEvent, type AgentTag, type SubagentState, UsageLedger } from "@nyzhi/core";
import { usageEvent } from "../../test-support/usage-events.js";
import type { AgentTreeInput } from "../agent-tree-types.js";

/** Tags of a small session: the lead, Opal and Jade under it, Quartz under Opal, Mica under Quartz. */
export const LEAD: AgentTag = { agentId: "lead", depth: 0 };
export const OPAL: AgentTag = { agentId: "opal-id", depth: 1, nickname: "Opal", role: "explorer" };
export const JADE: AgentTag = { agentId: "jade-id", depth: 1, nickname: "Jade", role: "worker" };
export const QUARTZ: AgentTag = { agentId: "quartz-id", depth: 2, nickname: "Quartz", role: "worker" };
export const MICA: AgentTag = { agentId: "mica-id", depth: 3, nickname: "Mica", role: "explorer" };

export function usage(input: number, output: number, costUsd = 0): AgentTreeInput & { type: "usage" } {
  const tokens = { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return usageEvent(LEAD, 1, tokens, costUsd);
}

/** `parent` spawned `child`, which starts running. */
export function spawned(parent: AgentTag, child: AgentTag, at = 0, model = "claude-haiku-4-5-20251001") {
  return [
    {
      type: "subagent-spawned",
      agent: parent,
      childId: child.agentId,
      nickname: child.nickname ?? "",
      role: child.role ?? "",
      depth: child.depth,
      unknownRole: false,
      model,
      at,
    },
    {
      type: "subagent-status-changed",
      agent: parent,
      childId: child.agentId,
      nickname: "",
      status: "running",
      child,
      state: { lifecycle: "running" },
      at,
    },
  ] satisfies AgentTreeInput[];
}

/**
 * `agent` spent tokens in one step; `total`: core's sum of its steps so far (its input and output
 * tokens, cost), when this is not its first.
 */
export function spent(
  agent: AgentTag,
  input: number,
  output: number,
  costUsd: number,
  at = 0,
  total?: { input: number; output: number; costUsd: number },
): AgentTreeInput {
  const step = usage(input, output, costUsd);
  const agentTotal = total ? usage(total.input, total.output, total.costUsd) : step;
  return { ...step, agent, at, agentTotal: { usage: agentTotal.usage, costUsd: agentTotal.costUsd } };
}

/**
 * Core's usage ledger with each agent's parent registered (as the child factory does), for
 * `spentIn`: events then carry core's own subtree totals, as a session sends them.
 */
export function ledgerOf(parents: Record<string, string>): UsageLedger {
  const ledger = new UsageLedger();
  for (const [child, parent] of Object.entries(parents)) ledger.setParent(child, parent);
  return ledger;
}

/** `agent` spent tokens in one step, counted in `ledger`: the event carries core's figures. */
export function spentIn(
  ledger: UsageLedger,
  agent: AgentTag,
  input: number,
  output: number,
  costUsd: number,
  at = 0,
): AgentTreeInput {
  const step = usage(input, output, costUsd);
  const totals = ledger.record(agent.agentId, step.usage, costUsd);
  return {
    ...step,
    agent,
    at,
    agentTotal: ledger.agentTotal(agent.agentId),
    subtreeTotals: ledger.subtreeChain(agent.agentId),
    sessionTotal: totals.session,
  };
}

/** `parent` reports `child` finished with `status` and its subtree's usage. */
export function completed(
  parent: AgentTag,
  child: AgentTag,
  status: string,
  at: number,
  figures: { tokens: number; costUsd: number; result?: string },
): AgentTreeInput[] {
  const event: AgentEvent = {
    type: "subagent-completed",
    agent: parent,
    childId: child.agentId,
    nickname: child.nickname ?? "",
    role: child.role ?? "",
    status,
    child,
    state: stateOf(status),
    usage: { inputTokens: figures.tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: figures.costUsd,
  };
  if (figures.result !== undefined) event.result = figures.result;
  return [
    {
      type: "subagent-status-changed",
      agent: parent,
      childId: child.agentId,
      nickname: "",
      status,
      child,
      state: stateOf(status),
      at,
    },
    { ...event, at },
  ];
}

/** The state core sends beside a status line, for fixtures written with the line (`errored: why`). */
function stateOf(status: string): SubagentState {
  const [head = "", ...rest] = status.split(":");
  const detail = rest.join(":").trim();
  const lifecycle = head.trim() as SubagentState["lifecycle"];
  return detail ? { lifecycle, detail } : { lifecycle };
}
