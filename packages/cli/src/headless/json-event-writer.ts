import { redactKnownSecrets } from "@nyzhi/config";
import { type AgentEvent, assertNever } from "@nyzhi/core";

/**
 * One JSONL line with keys sorted alphabetically (the original's serde output), compact. Known
 * credentials in any value (a provider error quoting the key) are `[redacted]`.
 */
export function jsonLine(value: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = value[key];
  return `${redactKnownSecrets(JSON.stringify(sorted))}\n`;
}

/**
 * Maps agent events to the `exec --json` lines. The original's events keep their names and keys
 * (`text_delta`, `tool_start`, `tool_done`, `retry`, `turn_complete`, `error`); new ones are
 * `session`, `approval_denied`, `usage`, `notice` and `summary`. Returns no line for events that
 * have none (deltas of tool arguments, reasoning). A call that never started (denied, blocked by a
 * hook, invalid arguments, cancelled, a failure before it ran) gets a `tool_start` too, just before
 * its `tool_done` (which says `refused` when it was), so every `tool_done` follows its `tool_start`.
 */
export function jsonLinesForEvent(
  event: AgentEvent,
  /** Calls whose `tool_start` was written; pass one set for a whole run to pair every call. */
  started: Set<string> = new Set(),
): Record<string, unknown>[] {
  const line = jsonForLeadEvent(event);
  if (!line) return [];
  let lines = [line];
  if (event.type === "tool-start") started.add(event.callId);
  if (event.type === "tool-end") {
    const done = event.refused ? { ...line, refused: event.refused } : line;
    lines = started.delete(event.callId) ? [done] : [{ type: "tool_start", name: event.name }, done];
  }
  // A subagent's own events carry which agent they came from; the lead's keep the original keys.
  if (event.agent.depth > 0 && !event.type.startsWith("subagent-")) {
    const from = { agent_id: event.agent.agentId, nickname: event.agent.nickname, depth: event.agent.depth };
    return lines.map((entry) => ({ ...entry, ...from }));
  }
  return lines;
}

function jsonForLeadEvent(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case "subagent-spawned":
      return {
        type: "subagent_spawned",
        agent_id: event.childId,
        nickname: event.nickname,
        role: event.role,
        depth: event.depth,
        model: event.model,
        parent_id: event.agent.agentId,
        ...(event.unknownRole ? { unknown_role: true } : {}),
      };
    case "subagent-queued":
      return {
        type: "subagent_queued",
        role: event.role,
        parent_id: event.agent.agentId,
        limit: event.limit,
        waiting: event.waiting,
      };
    case "subagent-status-changed":
      return {
        type: "subagent_status",
        agent_id: event.childId,
        nickname: event.nickname,
        status: event.status,
      };
    case "subagent-completed":
      return {
        type: "subagent_completed",
        agent_id: event.childId,
        nickname: event.nickname,
        role: event.role,
        status: event.status,
        input_tokens: event.usage.inputTokens,
        output_tokens: event.usage.outputTokens,
        cost_usd: event.costUsd,
        ...(event.result !== undefined ? { result: event.result } : {}),
      };
    case "text-delta":
      return { type: "text_delta", text: event.delta };
    case "tool-start":
      return { type: "tool_start", name: event.name };
    case "tool-end":
      return { type: "tool_done", name: event.name, output: event.output };
    case "approval-resolved":
      return event.approved ? undefined : { type: "approval_denied", tool: event.tool, reason: event.reason };
    case "usage":
      return {
        type: "usage",
        step: event.step,
        input_tokens: event.usage.inputTokens,
        output_tokens: event.usage.outputTokens,
        cache_read_tokens: event.usage.cacheReadTokens,
        cost_usd: event.costUsd,
      };
    case "retry":
      return {
        type: "retry",
        attempt: event.attempt,
        max: event.maxAttempts,
        wait_ms: event.waitMs,
        reason: event.reason,
        // The step is sent again: this agent's last text_delta lines, `discard.text` joined, are void.
        ...(event.discard
          ? {
              discard: {
                text: event.discard.text,
                tool_calls: event.discard.toolCalls.map((call) => ({ id: call.callId, name: call.name })),
              },
            }
          : {}),
      };
    case "notice":
      return { type: "notice", message: event.message };
    case "error":
      return { type: "error", message: event.message };
    case "turn-end":
      return event.reason === "completed" && event.agent.depth === 0 ? { type: "turn_complete" } : undefined;
    case "turn-start":
    case "step-start":
    case "step-end":
    case "reasoning-delta":
    case "tool-call-start":
    case "tool-call-delta":
    case "tool-output":
    case "approval-requested":
      return undefined;
    default:
      return assertNever(event);
  }
}
