import type { AgentTag, ApprovalAnswer } from "@nyzhi/core";

/** One pending approval, as the dialog shows it (core's `ApprovalPrompt` plus an id and context). */
export interface ApprovalRequestView {
  /** The request's id in the session (`approval-requested`'s `id`): what the answer names. */
  id: string;
  /** The call it is about. */
  callId?: string | undefined;
  tool: string;
  input: unknown;
  /** Core's preview: the command, a diff, or compact arguments. */
  preview?: string | undefined;
  /** The agent asking: the lead (depth 0) or a subagent/teammate with nickname and role. */
  agent: AgentTag;
  /** The working directory a command would run in. */
  cwd?: string | undefined;
}

/** The user's answer. `always`: allow it for the session (core decides what that covers). */
export interface ApprovalDecision {
  approved: boolean;
  always?: boolean | undefined;
  /** Why the user denied it; goes back to the model. */
  reason?: string | undefined;
}

/** Who asks, for the dialog's title: "lead", or "scout (explorer) · depth 1". */
export function describeRequester(agent: AgentTag): string {
  if (agent.depth === 0) return "lead";
  const name = agent.nickname ?? agent.agentId;
  return `${name}${agent.role ? ` (${agent.role})` : ""} · depth ${agent.depth}`;
}

/** Core's answer for a decision: a denial carries the user's reason to the model. */
export function toApprovalAnswer(decision: ApprovalDecision): ApprovalAnswer {
  if (!decision.approved) return decision.reason?.trim() ? { deny: decision.reason.trim() } : "deny";
  return decision.always ? "allow-always" : "allow";
}
