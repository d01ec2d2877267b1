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
});
