import { errorMessage, NyzhiError } from "@nyzhi/config";
import type { AgentEventOf } from "@nyzhi/core";
import { budgetFields, figuresFields, type JsonRecord, usageFields } from "./json-event-writer.js";

/** Lines of the run itself (not of an agent event) belong to the lead. */
const LEAD = { agent_id: "lead", depth: 0 } as const;

/** A failure before the turn started (a usage error, missing credentials): the only line after `session`. */
export function fatalErrorLine(error: unknown): JsonRecord {
  const code = error instanceof NyzhiError ? error.code : "error";
  return { type: "error", ...LEAD, message: errorMessage(error), code, fatal: true };
}

/** What only the host knows of a run, added to core's `turn-complete` for the last line. */
export interface RunFacts {
  /** From the start of the process to the end of the run, ms. */
  durationMs: number;
  /** Agents' worktrees whose changes nobody merged or discarded: left for the person. */
  worktrees?: readonly {
    agentId: string;
    nickname: string;
    branch: string;
    path: string;
    base: string;
    diffStat: string;
  }[];
}

/**
 * The last line of every run whose turn started, whatever its outcome: core's `turn-complete`
 * (the run's figures are its `sinceOpen`, the session's its `sessionTotal`) and the run's facts.
 */
export function turnCompleteLine(turn: AgentEventOf<"turn-complete">, run: RunFacts): JsonRecord {
  return {
    type: "turn_complete",
    ...LEAD,
    session_id: turn.sessionId,
    provider: turn.providerId,
    model: turn.modelId,
    reason: turn.reason,
    text: turn.text,
    steps: turn.steps,
    ...usageFields(turn.sinceOpen.usage),
    embedding_tokens: turn.sinceOpen.embeddingTokens,
    cost_usd: turn.sinceOpen.costUsd,
    session_total: figuresFields(turn.sessionTotal),
    duration_ms: run.durationMs,
    ...(turn.budget ? { budget: budgetFields(turn.budget) } : {}),
    ...(run.worktrees
      ? {
          worktrees: run.worktrees.map((left) => ({
            agent_id: left.agentId,
            nickname: left.nickname,
            branch: left.branch,
            path: left.path,
            base: left.base,
            diff_stat: left.diffStat,
          })),
        }
      : {}),
  };
}
