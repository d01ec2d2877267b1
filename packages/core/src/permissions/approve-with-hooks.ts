import type { AgentTag } from "../events/agent-events.js";
import type { AskingAgentHookContext } from "../hooks/hook-types.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import type { ApprovalBroker, ApprovalRequest } from "./approval-broker.js";

/**
 * The hook events around an approval (the runtime's lifecycle hooks fit): `permission_request` may
 * answer it before anyone is asked; `notification` tells the user an answer is awaited.
 */
export type ApprovalHooks = Pick<LifecycleHooks, "permissionRequest" | "notification">;

/** What a call refused because its turn was interrupted while the hooks ran is answered with. */
export const APPROVAL_INTERRUPTED_REASON = "cancelled: the turn was interrupted";

/** The `notification` message sent when the user is about to be asked (as Claude Code does). */
export function approvalNotice(tool: string, agent: AgentTag): string {
  const who = agent.depth > 0 ? ` (for agent ${agent.nickname ?? agent.agentId})` : "";
  return `nyz needs your approval to run ${tool}${who}`;
}

/** Who asks, for the hook's input: the fields `subagent_start` names a subagent with. */
function askingAgent(agent: AgentTag): AskingAgentHookContext {
  const context: AskingAgentHookContext = { agent_id: agent.agentId, depth: agent.depth };
  if (agent.nickname !== undefined) context.nickname = agent.nickname;
  if (agent.role !== undefined) context.role = agent.role;
  return context;
}

/**
 * Answers a call the policy asks about, as Claude Code does: the `permission_request` hooks first
 * (the first JSON `allow`/`deny` or block decides, and nobody is asked); without an answer the
 * broker asks the host, and a `notification` hook fires as the question goes out. It lives in the
 * gate, not a UI, so headless runs (no host to ask) can be answered by a hook too, and subagents'
 * approvals (which share the gate) take the same path.
 *
 * The notification is not awaited: a slow notifier must not hold the approval prompt back. Both
 * hook runs get the turn's signal, so an interrupt kills them.
 */
export async function approveWithHooks(
  request: ApprovalRequest,
  options: { broker: ApprovalBroker; hooks: ApprovalHooks | undefined; signal: AbortSignal | undefined },
): Promise<{ approved: boolean; reason: string }> {
  const { broker, hooks, signal } = options;
  const fireOptions = signal ? { signal } : {};
  if (hooks) {
    const { answer } = await hooks.permissionRequest(
      { tool_name: request.tool, tool_input: request.input, ...askingAgent(request.agent) },
      fireOptions,
    );
    // A hook killed by the interrupt may look like a "deny"; it is neither answer.
    if (signal?.aborted) return { approved: false, reason: APPROVAL_INTERRUPTED_REASON };
    if (answer?.decision === "allow") {
      return { approved: true, reason: `approved by a permission_request hook: ${answer.reason}` };
    }
    if (answer?.decision === "deny") {
      return { approved: false, reason: `denied by a permission_request hook: ${answer.reason}` };
    }
    if (broker.canAsk) {
      hooks
        .notification(
          { message: approvalNotice(request.tool, request.agent), notification_type: "permission_prompt" },
          fireOptions,
        )
        .catch(() => {
          // The runner never rejects; a custom implementation failing must not fail the approval.
        });
    }
  }
  return broker.request(request);
}
