import { type AgentEvent, assertNever, describeBudget, NO_APPROVER_REASON, truncateEnd } from "@nyzhi/core";

/**
 * Human output of `nyz run` / `nyz exec` (text mode), written to stderr so stdout carries only the
 * final answer: streamed text, one line per tool, denials (with how to allow them), retries and
 * errors.
 */
export function textForEvent(event: AgentEvent): string | undefined {
  if (event.agent.depth > 0 && !event.type.startsWith("subagent-")) {
    // A subagent's work shows as prefixed tool lines and errors; its streamed text would interleave.
    if (event.type === "text-delta" || event.type === "tool-start") return undefined;
    const line = textForLeadEvent(event);
    return line ? `[${event.agent.nickname ?? event.agent.agentId}] ${line.trimStart()}` : undefined;
  }
  return textForLeadEvent(event);
}

function textForLeadEvent(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "subagent-spawned":
      return `\n[agent ${event.nickname} (${event.role}${event.unknownRole ? ", unknown role: default" : ""}) started on ${event.model}]\n`;
    case "subagent-queued":
      return `[${event.nickname ? `agent ${event.nickname}` : "task"} (${event.role}) waits in line: ${event.limit} ${event.reason === "session" ? "subagents run in the session (max_running)" : "children of its parent run (per-parent limit)"}]\n`;
    case "subagent-status-changed":
      return undefined;
    case "budget-warning":
    case "budget-exhausted":
      return `[${event.agent.nickname ? `agent ${event.agent.nickname}` : "session"} budget ${event.type === "budget-warning" ? "at 80%" : "exhausted"}: ${describeBudget(event.budget)}]\n`;
    case "subagent-completed":
      return `[agent ${event.nickname} ${truncateEnd(event.status.split("\n", 1)[0] ?? "", 120, "...")}]\n`;
    case "text-delta":
      return event.delta;
    case "tool-start":
      return `\n[tool: ${event.name}] `;
    case "tool-end": {
      const firstLine = event.output.split("\n", 1)[0] ?? "";
      const status = event.isError ? "failed" : "done";
      return `${event.name} ${status}: ${truncateEnd(firstLine, 197, "...")}\n`;
    }
    case "approval-resolved":
      if (event.approved) return undefined;
      return `[denied: ${event.tool}] ${event.reason}\n${headlessApprovalHint(event.reason) ?? ""}`;
    case "retry":
      if (event.discard) {
        const partial = event.discard.text ? "; the partial answer above is discarded" : "";
        return `\n[connection lost, retrying (${event.attempt}/${event.maxAttempts})${partial}]\n`;
      }
      return `\n[retry ${event.attempt}/${event.maxAttempts}] waiting ${event.waitMs}ms: ${event.reason}\n`;
    case "notice":
      // What went wrong around the run (config, workspace, an MCP server) is a warning line.
      if (event.source === "mcp") return `warning: ${event.message}\n`;
      if (event.source !== undefined && event.source !== "permissions") return `${event.message}\n`;
      return `[note] ${event.message}\n`;
    case "hook-result":
      return `${event.summary}\n`;
    case "index-progress":
      // Quiet while it works (`--json` has every step); only a project left unindexed is said.
      return event.phase === "skipped" && event.message ? `[index] ${event.message}\n` : undefined;
    case "error":
      return `\nError: ${event.message}\n`;
    case "autopilot-phase":
      if (event.status === "started") return `\n[autopilot: ${event.phase} phase]\n`;
      if (event.phase === "cancelled") return "\n[autopilot cancelled]\n";
      return event.reason === "completed"
        ? "\n[autopilot complete]\n"
        : `\n[autopilot stopped in the ${event.phase} phase (${event.reason}); /autopilot resume goes on]\n`;
    case "team-state":
    case "turn-start":
    case "step-start":
    case "step-end":
    case "reasoning-delta":
    case "tool-call-start":
    case "tool-call-delta":
    case "tool-output":
    case "approval-requested":
    case "session-opened":
    case "queued-delivered":
    case "question":
    case "usage":
    case "turn-end":
    case "turn-complete":
      return undefined;
    default:
      return assertNever(event);
  }
}

/**
 * For a call refused because nobody could approve it (a headless run): how to let it run, as an
 * indented line. Undefined for every other refusal (a user's, a hook's).
 */
export function headlessApprovalHint(reason: string): string | undefined {
  if (!reason.endsWith(NO_APPROVER_REASON)) return undefined;
  if (reason.startsWith("always_ask rule")) {
    return "  It is in agent.trust.always_ask, which asks in every trust mode: a run without a terminal cannot allow it.\n";
  }
  if (reason.includes("control files")) {
    return "  To allow it in this run, pass --full-auto (control files ask in every trust mode but full).\n";
  }
  return "  To allow it in this run, pass --full-auto (trust full, sandbox workspace-write), or -y autoedit to allow file edits inside the workspace only.\n";
}
