import { type AgentEvent, NO_APPROVER_REASON } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { textForEvent } from "./text-event-writer.js";

const lead = { agentId: "lead", depth: 0 };
const retry = {
  type: "retry",
  agent: lead,
  attempt: 1,
  maxAttempts: 3,
  waitMs: 900,
  reason: "overloaded",
} as const;

describe("textForEvent", () => {
  it("says a cut-off partial answer above is discarded, and keeps the wait line for other retries", () => {
    expect(textForEvent(retry)).toBe("\n[retry 1/3] waiting 900ms: overloaded\n");
    const withText: AgentEvent = { ...retry, discard: { text: "Half an ", reasoning: false, toolCalls: [] } };
    expect(textForEvent(withText)).toBe(
      "\n[connection lost, retrying (1/3); the partial answer above is discarded]\n",
    );
    const callOnly: AgentEvent = {
      ...retry,
      discard: { text: "", reasoning: false, toolCalls: [{ callId: "toolu_1", name: "bash" }] },
    };
    expect(textForEvent(callOnly)).toBe("\n[connection lost, retrying (1/3)]\n");
  });

  it("says how to allow a call that was refused because nobody could approve it", () => {
    const denied = (reason: string): AgentEvent => ({
      type: "approval-resolved",
      agent: lead,
      callId: "c",
      tool: "bash",
      approved: false,
      reason,
    });
    expect(textForEvent(denied(NO_APPROVER_REASON))).toBe(
      `[denied: bash] ${NO_APPROVER_REASON}\n  To allow it in this run, pass --full-auto (trust full, sandbox workspace-write), or -y autoedit to allow file edits inside the workspace only.\n`,
    );
    expect(
      textForEvent(
        denied(
          `/w/.nyzhi/x is one of the agent's control files (.nyzhi/**): writing it always asks unless trust mode is full; ${NO_APPROVER_REASON}`,
        ),
      ),
    ).toContain(
      "\n  To allow it in this run, pass --full-auto (control files ask in every trust mode but full).\n",
    );
    expect(textForEvent(denied(`always_ask rule "bash"; ${NO_APPROVER_REASON}`))).toContain(
      "\n  It is in agent.trust.always_ask, which asks in every trust mode",
    );
    // A person's or a hook's refusal needs no hint.
    expect(textForEvent(denied("denied by the user"))).toBe("[denied: bash] denied by the user\n");
  });
});
