import type { AgentEvent } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { createJsonEventWriter } from "./json-event-writer.js";

const lead = { agentId: "lead", depth: 0 };
const child = { agentId: "agent-1", depth: 1, nickname: "Ada", role: "explorer" };
const leadFields = { agent_id: "lead", depth: 0 };

describe("createJsonEventWriter", () => {
  it("writes a subagent's usage with core's agent and subtree totals, as the agents panel shows them", () => {
    const linesFor = createJsonEventWriter();
    const tokens = (input: number, output: number) => ({
      inputTokens: input,
      outputTokens: output,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const [line] = linesFor({
      type: "usage",
      agent: child,
      step: 2,
      usage: tokens(100, 10),
      costUsd: 0.001,
      agentTotal: { usage: tokens(300, 30), costUsd: 0.003 },
      subtreeTotals: [
        {
          agentId: "agent-1",
          subtree: { usage: tokens(300, 30), costUsd: 0.003 },
          descendants: { usage: tokens(0, 0), costUsd: 0 },
        },
        {
          agentId: "lead",
          subtree: { usage: tokens(1300, 70), costUsd: 0.013 },
          descendants: { usage: tokens(300, 30), costUsd: 0.003 },
        },
      ],
      sessionTotal: { usage: tokens(1300, 70), costUsd: 0.013, embeddingTokens: 0 },
    } as AgentEvent);
    const spend = (input: number, output: number, cost: number) => ({
      input_tokens: input,
      output_tokens: output,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      cost_usd: cost,
    });
    expect(line).toMatchObject({
      type: "usage",
      agent_id: "agent-1",
      agent_total: spend(300, 30, 0.003),
      subtree_totals: [
        { agent_id: "agent-1", subtree: spend(300, 30, 0.003), descendants: spend(0, 0, 0) },
        { agent_id: "lead", subtree: spend(1300, 70, 0.013), descendants: spend(300, 30, 0.003) },
      ],
    });
  });

  it("gives two parallel calls ids and arguments, so each tool_done matches its tool_start", () => {
    const linesFor = createJsonEventWriter();
    const lines = (events: Record<string, unknown>[]) =>
      events.flatMap((event) => linesFor({ agent: lead, ...event } as unknown as AgentEvent));
    expect(
      lines([
        { type: "tool-start", callId: "a", name: "read", input: { file_path: "a.ts" } },
        { type: "tool-start", callId: "b", name: "read", input: { file_path: "b.ts" } },
        { type: "tool-end", callId: "b", name: "read", output: "B", isError: false, durationMs: 3 },
        { type: "tool-end", callId: "a", name: "read", output: "A", isError: false, durationMs: 5 },
      ]),
    ).toEqual([
      { type: "tool_start", ...leadFields, id: "a", name: "read", input: { file_path: "a.ts" } },
      { type: "tool_start", ...leadFields, id: "b", name: "read", input: { file_path: "b.ts" } },
      {
        type: "tool_done",
        ...leadFields,
        id: "b",
        name: "read",
        input: { file_path: "b.ts" },
        output: "B",
        is_error: false,
        duration_ms: 3,
      },
      {
        type: "tool_done",
        ...leadFields,
        id: "a",
        name: "read",
        input: { file_path: "a.ts" },
        output: "A",
        is_error: false,
        duration_ms: 5,
      },
    ]);
  });

  it("pairs a call that never started with a tool_start, with the arguments the model streamed", () => {
    const linesFor = createJsonEventWriter();
    const lines = (events: Record<string, unknown>[]) =>
      events.flatMap((event) => linesFor({ agent: lead, ...event } as unknown as AgentEvent));
    expect(
      lines([
        { type: "tool-call-start", callId: "c", name: "bash" },
        { type: "tool-call-delta", callId: "c", delta: '{"command":' },
        { type: "tool-call-delta", callId: "c", delta: '"touch x"}' },
        { type: "tool-call-start", callId: "d", name: "edit" },
        { type: "tool-call-delta", callId: "d", delta: '{"broken' },
      ]),
    ).toEqual([]);
    const refused = {
      type: "tool-end",
      name: "bash",
      output: "no",
      isError: true,
      durationMs: 0,
      refused: "denied",
    };
    expect(
      lines([
        { ...refused, callId: "c" },
        { ...refused, callId: "d", name: "edit" },
      ]),
    ).toEqual([
      { type: "tool_start", ...leadFields, id: "c", name: "bash", input: { command: "touch x" } },
      {
        type: "tool_done",
        ...leadFields,
        id: "c",
        name: "bash",
        input: { command: "touch x" },
        output: "no",
        is_error: true,
        duration_ms: 0,
        refused: "denied",
      },
      // Arguments that are not JSON are `null` (the output says why the call was refused).
      { type: "tool_start", ...leadFields, id: "d", name: "edit", input: null },
      {
        type: "tool_done",
        ...leadFields,
        id: "d",
        name: "edit",
        input: null,
        output: "no",
        is_error: true,
        duration_ms: 0,
        refused: "denied",
      },
    ]);
  });

  it("names the agent of every line, and the subagent and its spawner on subagent lines", () => {
    const linesFor = createJsonEventWriter();
    expect(linesFor({ type: "text-delta", agent: child, delta: "hi" })).toEqual([
      { type: "text_delta", agent_id: "agent-1", depth: 1, nickname: "Ada", role: "explorer", text: "hi" },
    ]);
    linesFor({
      type: "subagent-spawned",
      agent: lead,
      childId: "agent-1",
      nickname: "Ada",
      role: "explorer",
      depth: 1,
      unknownRole: false,
      model: "m",
    });
    expect(
      linesFor({
        type: "subagent-status-changed",
        agent: lead,
        childId: "agent-1",
        nickname: "Ada",
        status: "running",
        child: { agentId: "agent-1", depth: 1, nickname: "Ada", role: "explorer" },
        state: { lifecycle: "running" },
      }),
    ).toEqual([
      {
        type: "subagent_status",
        agent_id: "agent-1",
        depth: 1,
        role: "explorer",
        nickname: "Ada",
        parent_id: "lead",
        status: "running",
        lifecycle: "running",
      },
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
    expect(createJsonEventWriter()(retry)).toEqual([
      { type: "retry", ...leadFields, attempt: 1, max: 3, wait_ms: 900, reason: "cut" },
    ]);
    const discard = { text: "Half an ", reasoning: true, toolCalls: [{ callId: "toolu_1", name: "bash" }] };
    expect(createJsonEventWriter()({ ...retry, discard })).toEqual([
      {
        type: "retry",
        ...leadFields,
        attempt: 1,
        max: 3,
        wait_ms: 900,
        reason: "cut",
        discard: { text: "Half an ", reasoning: true, tool_calls: [{ id: "toolu_1", name: "bash" }] },
      },
    ]);
  });
});
