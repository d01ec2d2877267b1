import { redactKnownSecrets } from "@nyzhi/config";
import {
  type AgentEvent,
  type AgentTag,
  assertNever,
  type BudgetReport,
  type BudgetSpec,
  type Spend,
  type SubtreeTotal,
  type UsageFigures,
} from "@nyzhi/core";
import type { Usage } from "@nyzhi/provider";

/** One `exec --json` line before it is serialised. */
export type JsonRecord = Record<string, unknown>;

/**
 * One JSONL line with keys sorted alphabetically (the original's serde output), compact. Known
 * credentials in any value (a provider error quoting the key) are `[redacted]`.
 */
export function jsonLine(value: JsonRecord): string {
  const sorted: JsonRecord = {};
  for (const key of Object.keys(value).sort()) sorted[key] = value[key];
  return `${redactKnownSecrets(JSON.stringify(sorted))}\n`;
}

/** The agent a line belongs to: `agent_id` and `depth` always, `nickname` and `role` when it has them. */
export function agentFields(agent: AgentTag): JsonRecord {
  return {
    agent_id: agent.agentId,
    depth: agent.depth,
    ...(agent.nickname !== undefined ? { nickname: agent.nickname } : {}),
    ...(agent.role !== undefined ? { role: agent.role } : {}),
  };
}

/** Token counts as flat `*_tokens` keys (the `usage`, `turn_end` and `turn_complete` lines). */
export function usageFields(usage: Usage): JsonRecord {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_tokens: usage.cacheReadTokens,
    cache_write_tokens: usage.cacheWriteTokens,
  };
}

/**
 * Core's totals as one object (`session_total` on the `usage`, `index_progress` and `turn_complete`
 * lines): the `*_tokens` keys, `cost_usd` and `embedding_tokens`.
 */
export function figuresFields(figures: UsageFigures): JsonRecord {
  return {
    ...usageFields(figures.usage),
    cost_usd: figures.costUsd,
    embedding_tokens: figures.embeddingTokens,
  };
}

/** An agent's or a subtree's spend: the `*_tokens` keys and `cost_usd`. */
export function spendFields(spend: Spend): JsonRecord {
  return { ...usageFields(spend.usage), cost_usd: spend.costUsd };
}

/**
 * Core's subtree totals (`subtree_totals` on the `usage` line): the agent's own, then each parent's
 * up to the lead's (last); `subtree` is that agent with everything below it, `descendants` what
 * only its subagents and teammates spent. The agents panel shows the same figures.
 */
export function subtreeTotalsFields(totals: readonly SubtreeTotal[]): JsonRecord[] {
  return totals.map((total) => ({
    agent_id: total.agentId,
    subtree: spendFields(total.subtree),
    descendants: spendFields(total.descendants),
  }));
}

/** A budget's state: `{ scope, limit, spent, left }`, each dimension as `usd`, `tokens`, `minutes`. */
export function budgetFields(report: BudgetReport): JsonRecord {
  return { scope: report.scope, limit: report.limit, spent: report.spent, left: report.left };
}

/** A budget as set: `{ scope, usd?, tokens?, minutes? }`. */
function budgetLimitFields(spec: BudgetSpec): JsonRecord {
  return { scope: spec.scope ?? "agent", ...spec };
}

/** What the writer knows of a tool call before its `tool_done`. */
interface CallState {
  /** Arguments as the tool validated them (`tool_start`, `approval_requested`). */
  input?: unknown;
  /** The arguments JSON as streamed (`tool-call-delta`), for calls that never start. */
  raw: string;
  started: boolean;
}

/**
 * Maps agent events to `exec --json` lines (documented, field by field, in `docs/json-events.md`).
 * Every line names the agent it belongs to (`agentFields`); `subagent_*` lines describe the
 * subagent and name its spawner in `parent_id`. Tool lines carry the call `id`, and `tool_done`
 * repeats the arguments. A call that never started (denied, blocked by a hook, invalid, cancelled)
 * still gets a `tool_start` just before its `tool_done`. The streamed arguments
 * (`tool-call-start`, `tool-call-delta`) produce no line. Keep one writer for a whole run: it pairs
 * calls across events.
 */
export function createJsonEventWriter(): (event: AgentEvent) => JsonRecord[] {
  const calls = new Map<string, CallState>();
  /** Subagents seen spawning, for the depth and role of their later status lines. */
  const children = new Map<string, { depth: number; role: string }>();
  const call = (callId: string): CallState => {
    let state = calls.get(callId);
    if (!state) {
      state = { raw: "", started: false };
      calls.set(callId, state);
    }
    return state;
  };
  const childFields = (event: { childId: string; agent: AgentTag }, role?: string): JsonRecord => {
    const known = children.get(event.childId);
    const childRole = role ?? known?.role;
    return {
      agent_id: event.childId,
      depth: known?.depth ?? event.agent.depth + 1,
      parent_id: event.agent.agentId,
      ...(childRole !== undefined ? { role: childRole } : {}),
    };
  };

  return (event) => {
    const agent = agentFields(event.agent);
    switch (event.type) {
      case "tool-call-start":
        call(event.callId);
        return [];
      case "tool-call-delta":
        call(event.callId).raw += event.delta;
        return [];
      case "tool-start": {
        const state = call(event.callId);
        state.input = event.input;
        state.started = true;
        return [{ type: "tool_start", ...agent, id: event.callId, name: event.name, input: event.input }];
      }
      case "tool-end": {
        const state = calls.get(event.callId);
        calls.delete(event.callId);
        const input = state ? inputOf(state) : null;
        const done = {
          type: "tool_done",
          ...agent,
          id: event.callId,
          name: event.name,
          input,
          output: event.output,
          is_error: event.isError,
          duration_ms: event.durationMs,
          ...(event.refused ? { refused: event.refused } : {}),
        };
        if (state?.started) return [done];
        return [{ type: "tool_start", ...agent, id: event.callId, name: event.name, input }, done];
      }
      case "approval-requested":
        call(event.callId).input = event.input;
        return [
          {
            type: "approval_requested",
            ...agent,
            id: event.callId,
            approval_id: event.id,
            tool: event.tool,
            input: event.input,
            preview: event.preview,
          },
        ];
      case "retry":
        for (const discarded of event.discard?.toolCalls ?? []) calls.delete(discarded.callId);
        return [retryLine(event, agent)];
      case "subagent-spawned":
        children.set(event.childId, { depth: event.depth, role: event.role });
        return [
          {
            type: "subagent_spawned",
            ...childFields(event, event.role),
            depth: event.depth,
            nickname: event.nickname,
            model: event.model,
            ...(event.unknownRole ? { unknown_role: true } : {}),
            ...(event.budget ? { budget: budgetLimitFields(event.budget) } : {}),
            ...(event.worktree ? { worktree: event.worktree } : {}),
            ...(event.callId ? { call_id: event.callId } : {}),
          },
        ];
      case "subagent-status-changed":
        return [
          {
            type: "subagent_status",
            ...childFields(event),
            nickname: event.nickname,
            status: event.status,
            lifecycle: event.state.lifecycle,
          },
        ];
      case "subagent-completed":
        children.delete(event.childId);
        return [
          {
            type: "subagent_completed",
            ...childFields(event, event.role),
            nickname: event.nickname,
            status: event.status,
            lifecycle: event.state.lifecycle,
            ...usageFields(event.usage),
            cost_usd: event.costUsd,
            ...(event.result !== undefined ? { result: event.result } : {}),
            ...(event.budget ? { budget: budgetFields(event.budget) } : {}),
            ...(event.worktree
              ? {
                  worktree: {
                    branch: event.worktree.branch,
                    path: event.worktree.path,
                    base: event.worktree.base,
                    diff_stat: event.worktree.diffStat,
                  },
                }
              : {}),
          },
        ];
      case "subagent-queued":
        // `role` is the role asked for; the line belongs to the agent that waits for a slot.
        return [
          {
            type: "subagent_queued",
            ...agent,
            parent_id: event.agent.agentId,
            role: event.role,
            limit: event.limit,
            waiting: event.waiting,
            ...(event.reason !== undefined ? { reason: event.reason } : {}),
            ...(event.childId !== undefined ? { child_id: event.childId } : {}),
            ...(event.nickname !== undefined ? { child_nickname: event.nickname } : {}),
          },
        ];
      case "turn-complete":
        // The run's last line (`turn_complete`), written once by the host from core's
        // `session.turnComplete`: autopilot's phases each end a turn, the run ends once.
        return [];
      default:
        return [{ ...agent, ...simpleLine(event) }];
    }
  };
}

type SimpleEvent = Exclude<
  AgentEvent,
  {
    type:
      | "tool-call-start"
      | "tool-call-delta"
      | "tool-start"
      | "tool-end"
      | "approval-requested"
      | "retry"
      | "subagent-spawned"
      | "subagent-status-changed"
      | "subagent-completed"
      | "subagent-queued"
      | "turn-complete";
  }
>;

/** The lines that need no state: one per event, the agent's fields added by the caller. */
function simpleLine(event: SimpleEvent): JsonRecord {
  switch (event.type) {
    case "turn-start":
      return { type: "turn_start", turn_id: event.turnId, input: event.input };
    case "step-start":
      return { type: "step_start", step: event.step };
    case "text-delta":
      return { type: "text_delta", text: event.delta };
    case "reasoning-delta":
      return { type: "reasoning_delta", text: event.delta };
    case "tool-output":
      return { type: "tool_output", id: event.callId, name: event.name, text: event.text };
    case "approval-resolved":
      return {
        type: event.approved ? "approval_granted" : "approval_denied",
        id: event.callId,
        tool: event.tool,
        reason: event.reason,
      };
    case "usage":
      return {
        type: "usage",
        step: event.step,
        ...usageFields(event.usage),
        cost_usd: event.costUsd,
        agent_total: spendFields(event.agentTotal),
        subtree_totals: subtreeTotalsFields(event.subtreeTotals),
        session_total: figuresFields(event.sessionTotal),
      };
    case "step-end":
      return {
        type: "step_end",
        step: event.step,
        finish_reason: event.finishReason,
        tool_calls: event.toolCalls,
      };
    case "notice":
      return {
        type: "notice",
        message: event.message,
        ...(event.source !== undefined ? { source: event.source } : {}),
        ...(event.level !== undefined ? { level: event.level } : {}),
        ...(event.server !== undefined ? { server: event.server } : {}),
        ...(event.kind !== undefined ? { kind: event.kind } : {}),
      };
    case "session-opened":
      return {
        type: "session",
        session_id: event.sessionId,
        provider: event.providerId,
        model: event.modelId,
        session_total: figuresFields(event.sessionTotal),
      };
    case "hook-result":
      return { type: "hook", event: event.event, status: event.status, summary: event.summary };
    case "queued-delivered":
      return { type: "queued_delivered", texts: event.texts };
    case "question":
      return {
        type: "question",
        id: event.id,
        question: event.question,
        ...(event.choices !== undefined ? { choices: event.choices } : {}),
      };
    case "budget-warning":
    case "budget-exhausted":
      return {
        type: event.type === "budget-warning" ? "budget_warning" : "budget_exhausted",
        dimension: event.dimension,
        budget: budgetFields(event.budget),
      };
    case "index-progress":
      return {
        type: "index_progress",
        phase: event.phase,
        files_done: event.filesDone,
        files_total: event.filesTotal,
        chunks: event.chunks,
        embedded: event.embedded,
        embedding_tokens: event.embeddingTokens,
        session_total: figuresFields(event.sessionTotal),
        cost_usd: event.costUsd,
        ...(event.message !== undefined ? { message: event.message } : {}),
      };
    case "error":
      return { type: "error", message: event.message, code: event.code, fatal: event.fatal };
    case "team-state":
      return {
        type: "team_state",
        changes: event.changes,
        teams: event.teams.map((team) => ({
          name: team.name,
          lead_unread: team.leadUnread,
          board: team.board,
          members: team.members.map((member) => ({
            name: member.name,
            ...(member.agentId !== undefined ? { agent_id: member.agentId } : {}),
            ...(member.role !== undefined ? { role: member.role } : {}),
            state: member.state,
            unread: member.unread,
          })),
        })),
      };
    case "autopilot-phase":
      return {
        type: "autopilot_phase",
        phase: event.phase,
        status: event.status,
        idea: event.idea,
        ...(event.reason !== undefined ? { reason: event.reason } : {}),
      };
    case "turn-end":
      return {
        type: "turn_end",
        turn_id: event.turnId,
        reason: event.reason,
        steps: event.steps,
        text: event.text,
        ...usageFields(event.usage),
        cost_usd: event.costUsd,
      };
    default:
      return assertNever(event);
  }
}

function retryLine(event: Extract<AgentEvent, { type: "retry" }>, agent: JsonRecord): JsonRecord {
  return {
    type: "retry",
    ...agent,
    attempt: event.attempt,
    max: event.maxAttempts,
    wait_ms: event.waitMs,
    reason: event.reason,
    // The step is sent again: this agent's last text_delta lines, `discard.text` joined, are void.
    ...(event.discard
      ? {
          discard: {
            text: event.discard.text,
            reasoning: event.discard.reasoning,
            tool_calls: event.discard.toolCalls.map((call) => ({ id: call.callId, name: call.name })),
          },
        }
      : {}),
  };
}

/** A call's arguments: as validated, else as streamed (`{}` when none, `null` when not JSON). */
function inputOf(state: CallState): unknown {
  if (state.input !== undefined) return state.input;
  if (state.raw.trim() === "") return {};
  try {
    return JSON.parse(state.raw) as unknown;
  } catch {
    return null;
  }
}
