import type { AgentEvent } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { jsonLinesForEvent } from "./json-event-writer.js";

const lead = { agentId: "lead", nickname: "lead", depth: 0 } as AgentEvent["agent"];

describe("jsonLinesForEvent", () => {
  it("pairs every tool_done with a tool_start, also for calls that never started", () => {
    const started = new Set<string>();
    const lines = (event: Record<string, unknown>) =>
      jsonLinesForEvent({ agent: lead, ...event } as unknown as AgentEvent, started);
    expect(lines({ type: "tool-start", callId: "a", name: "read", input: {} })).toEqual([
      { type: "tool_start", name: "read" },
    ]);
    expect(lines({ type: "tool-end", callId: "a", name: "read", output: "ok", isError: false })).toEqual([
      { type: "tool_done", name: "read", output: "ok" },
    ]);
    // A failure before the call started (no tool-start, not marked refused) still pairs.
    expect(lines({ type: "tool-end", callId: "b", name: "bash", output: "boom", isError: true })).toEqual([
      { type: "tool_start", name: "bash" },
      { type: "tool_done", name: "bash", output: "boom" },
    ]);
    expect(
      lines({ type: "tool-end", callId: "c", name: "bash", output: "no", isError: true, refused: "denied" }),
    ).toEqual([
      { type: "tool_start", name: "bash" },
      { type: "tool_done", name: "bash", output: "no", refused: "denied" },
    ]);
  });

  it("names what a retried step streamed in its retry line, and keeps the original line otherwise", () => {
    const retry = {
      type: "retry",
      agent: lead,
      attempt: 1,
      maxAttempts: 3,
      waitMs: 900,
      reason: "cut",
    } as const;
    expect(jsonLinesForEvent(retry)).toEqual([
      { type: "retry", attempt: 1, max: 3, wait_ms: 900, reason: "cut" },
    ]);
    const discard = { text: "Half an ", reasoning: true, toolCalls: [{ callId: "toolu_1", name: "bash" }] };
    expect(jsonLinesForEvent({ ...retry, discard })).toEqual([
      {
        type: "retry",
        attempt: 1,
        max: 3,
        wait_ms: 900,
        reason: "cut",
        discard: { text: "Half an ", tool_calls: [{ id: "toolu_1", name: "bash" }] },
      },
    ]);
  });
});
