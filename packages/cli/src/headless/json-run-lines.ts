import { errorMessage, NyzhiError } from "@nyzhi/config";
import type { BudgetReport, TurnEndReason } from "@nyzhi/core";
import type { Usage } from "@nyzhi/provider";
import { budgetFields, type JsonRecord, usageFields } from "./json-event-writer.js";

/** Lines of the run itself (not of an agent event) belong to the lead. */
const LEAD = { agent_id: "lead", depth: 0 } as const;

/** A failure before the turn started (a usage error, missing credentials): the only line after `session`. */
export function fatalErrorLine(error: unknown): JsonRecord {
  const code = error instanceof NyzhiError ? error.code : "error";
  return { type: "error", ...LEAD, message: errorMessage(error), code, fatal: true };
}

export interface TurnCompletion {
  sessionId: string;
  providerId: string;
  modelId: string;
  reason: TurnEndReason;
  /** The final assistant text ("" when the turn failed: a broken-off step's text is no answer). */
  text: string;
  steps: number;
  /** The whole run's usage: the lead's turns, its subagents' and teammates'. */
  usage: Usage;
  /** US dollars: the model requests' and the code index's remote embedder's. */
  costUsd: number;
  /** Tokens the code index's remote embedder charged during the run. */
  embeddingTokens: number;
  durationMs: number;
  /** The run's cap (`agent.budget`, `--max-budget-usd`), when one is set. */
  budget?: BudgetReport;
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

/** The last line of every run whose turn started, whatever its outcome. */
export function turnCompleteLine(turn: TurnCompletion): JsonRecord {
  return {
    type: "turn_complete",
    ...LEAD,
    session_id: turn.sessionId,
    provider: turn.providerId,
    model: turn.modelId,
    reason: turn.reason,
    text: turn.text,
    steps: turn.steps,
    ...usageFields(turn.usage),
    embedding_tokens: turn.embeddingTokens,
    cost_usd: turn.costUsd,
    duration_ms: turn.durationMs,
    ...(turn.budget ? { budget: budgetFields(turn.budget) } : {}),
    ...(turn.worktrees
      ? {
          worktrees: turn.worktrees.map((left) => ({
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
