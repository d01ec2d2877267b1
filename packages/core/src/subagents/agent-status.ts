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

/** The status as hosts show it in one line: `completed: <first 100 characters>`, `errored: <why>` … */
export function formatStatus(status: AgentStatus): string {
  switch (status.state) {
    case "completed": {
      if (!status.result) return "completed";
      const preview = Array.from(status.result.trim());
      return `completed: ${preview.slice(0, 100).join("")}${preview.length > 100 ? "…" : ""}`;
    }
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
