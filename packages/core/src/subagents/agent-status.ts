/** Where a subagent is in its life: `pending_init → running → completed | errored | shutdown`. */
export type AgentStatus =
  | { state: "pending_init" }
  | { state: "running" }
  | { state: "completed"; result?: string }
  | { state: "errored"; message: string }
  | { state: "shutdown" }
  | { state: "not_found" };

export function isFinal(status: AgentStatus): boolean {
  return status.state !== "pending_init" && status.state !== "running";
}

/** The status as the model and hosts see it: `completed: <first 100 characters>`, `errored: <why>` … */
export function formatStatus(status: AgentStatus): string {
  switch (status.state) {
    case "completed": {
      if (!status.result) return "completed";
      const preview = Array.from(status.result.trim());
      return `completed: ${preview.slice(0, 100).join("")}${preview.length > 100 ? "…" : ""}`;
    }
    case "errored":
      return `errored: ${status.message}`;
    default:
      return status.state;
  }
}
