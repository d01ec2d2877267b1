import type { AgentEvent, BudgetSpec } from "@nyzhi/core";
import type { TokenUsage } from "../transcript/transcript-types.js";

/**
 * Where an agent is in its life, as the panel shows it. `idle` is a teammate waiting for mail;
 * `awaiting-approval` is not stored but derived (`agentStatus`) from the open approvals.
 */
export type AgentLifecycle = "pending" | "running" | "idle" | "completed" | "errored" | "shutdown";

/** A row's status: its lifecycle, or `awaiting-approval` while one of its calls waits for the user. */
export type AgentRunStatus = AgentLifecycle | "awaiting-approval";

/** Tokens and cost (US dollars) of some model steps. */
export interface UsageTotals {
  usage: TokenUsage;
  costUsd: number;
}

/** A tool call an agent has begun and not yet ended; `summary` is "" until its arguments are known. */
export interface RunningTool {
  callId: string;
  name: string;
  summary: string;
}

/** One agent of the tree (a subagent or a teammate of this process); the lead has none. */
export interface AgentNode {
  agentId: string;
  /** The agent that spawned it; undefined for the lead's own children (the tree's roots). */
  parentId: string | undefined;
  nickname: string;
  role: string;
  /** 1 for the lead's children. */
  depth: number;
  model: string;
  lifecycle: AgentLifecycle;
  /** Why it errored, or the first line of its result. */
  detail: string | undefined;
  /** Its whole final answer (from `subagent-completed`), for "copy result". */
  result: string | undefined;
  /** Call ids waiting for the user's approval. */
  approvals: readonly string[];
  /** Calls begun and not ended, oldest first: the newest is what it does now. */
  tools: readonly RunningTool[];
  /** What it streams when no tool runs. */
  streaming: "thinking" | "writing" | undefined;
  /** When it was spawned or last resumed / woken (ms since epoch). */
  startedAt: number;
  /** When it reached a final state or went idle (ms); undefined while it works. */
  endedAt: number | undefined;
  /** Its own requests: core's `agentTotal` from its latest `usage` event. */
  own: UsageTotals;
  /**
   * Its subtree's figures (its own and its descendants'), as core last reported them: a `usage`
   * event's `subtreeTotals` (any descendant's step updates it) or `subagent-completed`. The panel
   * shows it as it is; it never sums rows.
   */
  subtree: UsageTotals | undefined;
  /** Its children's ids, in spawn order. */
  children: readonly string[];
  /** The message its parent gave it (its task), shown at the top of its transcript. */
  task?: string | undefined;
  /** Its budget (as clamped by core); the row shows spent / budget. */
  budget?: BudgetSpec | undefined;
  /**
   * Its git worktree: while it works, and once finished while its changes wait for a decision
   * (`diffStat` set); cleared when they are merged or discarded.
   */
  worktree?: { branch: string; path: string; diffStat?: string } | undefined;
}

/** The panel's model of every agent the session has spawned since the last `clearFinished`. */
export interface AgentTreeState {
  /** The lead's id, learnt from its first event. */
  leadId: string | undefined;
  nodes: Readonly<Record<string, AgentNode>>;
  /** The lead's children, in spawn order. */
  roots: readonly string[];
  /** What every subagent and teammate of this process spent: core's figure (the lead's `descendants`). */
  agentsTotal: UsageTotals;
}

/** An agent event for the panel; `at` (ms since epoch) overrides the clock, for tests. */
export type AgentTreeInput = AgentEvent & { at?: number };

export function emptyUsageTotals(): UsageTotals {
  return {
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
  };
}

/** Every token of a usage (input, output, cache reads and writes), as the status line counts them. */
export function totalTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

export function addUsageTotals(left: UsageTotals, right: UsageTotals): UsageTotals {
  return {
    usage: {
      inputTokens: left.usage.inputTokens + right.usage.inputTokens,
      outputTokens: left.usage.outputTokens + right.usage.outputTokens,
      cacheReadTokens: left.usage.cacheReadTokens + right.usage.cacheReadTokens,
      cacheWriteTokens: left.usage.cacheWriteTokens + right.usage.cacheWriteTokens,
    },
    costUsd: left.costUsd + right.costUsd,
  };
}

/** Completed, errored or shut down: it does nothing more unless resumed. */
export function isFinished(lifecycle: AgentLifecycle): boolean {
  return lifecycle === "completed" || lifecycle === "errored" || lifecycle === "shutdown";
}

/** The status a row shows: `awaiting-approval` while an approval is open and it has not ended. */
export function agentStatus(node: AgentNode): AgentRunStatus {
  return node.approvals.length > 0 && !isFinished(node.lifecycle) ? "awaiting-approval" : node.lifecycle;
}
