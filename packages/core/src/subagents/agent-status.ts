import type { SubagentState } from "../events/agent-events.js";

/**
 * Where a subagent is in its life: `[queued →] pending_init → running → completed | errored |
 * shutdown`. `queued`: waiting for a slot (its parent's or the session's limit).
 */
export type AgentStatus =
  | { state: "queued" }
  | { state: "pending_init" }
  | { state: "running" }
  | { state: "completed"; result?: string }
  | { state: "errored"; message: string }
  | { state: "shutdown" }
  /** Stopped because its budget (or an enclosing one) ran out; `result` is its partial answer. */
  | { state: "budget_exhausted"; message: string; result?: string }
  | { state: "not_found" };

export function isFinal(status: AgentStatus): boolean {
  return status.state !== "pending_init" && status.state !== "running" && status.state !== "queued";
}

/** The status as data for hosts (`SubagentState` on subagent events). */
export function subagentState(status: AgentStatus): SubagentState {
  switch (status.state) {
    case "queued":
    case "pending_init":
      return { lifecycle: "pending" };
    case "running":
      return { lifecycle: "running" };
    case "completed":
      return status.result?.trim()
        ? { lifecycle: "completed", detail: preview(status.result) }
        : { lifecycle: "completed" };
    case "errored":
      return { lifecycle: "errored", detail: status.message };
    case "budget_exhausted":
      return { lifecycle: "errored", detail: `budget exhausted: ${status.message}` };
    case "shutdown":
    case "not_found":
      return { lifecycle: "shutdown" };
  }
}

function preview(text: string): string {
  const chars = Array.from(text.trim());
  return `${chars.slice(0, 100).join("")}${chars.length > 100 ? "…" : ""}`;
}

/** The status as hosts show it in one line: `completed: <first 100 characters>`, `errored: <why>` … */
export function formatStatus(status: AgentStatus): string {
  switch (status.state) {
    case "completed":
      return status.result ? `completed: ${preview(status.result)}` : "completed";
    case "errored":
      return `errored: ${status.message}`;
    case "budget_exhausted":
      return `budget exhausted: ${status.message}`;
    default:
      return status.state;
  }
}

/**
 * The status as the parent model reads it (`wait`): a completed agent's whole answer, not a
 * preview — the parent has no other way to read its subagent's findings.
 */
export function statusWithResult(status: AgentStatus): string {
  if (status.state === "completed" && status.result?.trim()) return `completed: ${status.result.trim()}`;
  if (status.state === "budget_exhausted")
    return `budget exhausted: ${status.message}. Partial answer: ${status.result?.trim() || "(none)"}`;
  return formatStatus(status);
}
