import type { AgentEvent } from "@nyzhi/core";
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
});
