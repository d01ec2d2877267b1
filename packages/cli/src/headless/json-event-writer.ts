import { type AgentEvent, assertNever } from "@nyzhi/core";

/** One JSONL line with keys sorted alphabetically (the original's serde output), compact. */
export function jsonLine(value: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = value[key];
  return `${JSON.stringify(sorted)}\n`;
}

/**
 * Maps agent events to the `exec --json` lines. The original's events keep their names and keys
 * (`text_delta`, `tool_start`, `tool_done`, `retry`, `turn_complete`, `error`); new ones are
 * `session`, `approval_denied`, `usage`, `notice` and `summary`. Returns undefined for events
 * that have no line (deltas of tool arguments, reasoning).
 */
export function jsonForEvent(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
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
      };
    case "notice":
      return { type: "notice", message: event.message };
    case "error":
      return { type: "error", message: event.message };
    case "turn-end":
      return event.reason === "completed" ? { type: "turn_complete" } : undefined;
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
