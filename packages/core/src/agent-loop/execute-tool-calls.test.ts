import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../events/agent-events.js";
import { defineTool } from "../tools/seam/define-tool.js";
import { ToolRegistry } from "../tools/seam/tool-registry.js";
import { createTestContext } from "../tools/testing/create-test-context.js";
import { type AgentContext, allowAllGate, type ToolCallHooks, type ToolGate } from "./agent-context.js";
import { executeToolCalls } from "./execute-tool-calls.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A mutating tool that records each run instead of changing anything. */
function spyTool() {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: "mutate",
    description: "records its runs",
    inputSchema: z.object({ label: z.string() }),
    kind: "edit",
    mutates: true,
    async execute(input) {
      runs.push(input);
      return "done";
    },
  });
  return { tool, runs };
}

async function contextWith(
  tool: ReturnType<typeof spyTool>["tool"],
  fields: { gate?: ToolGate; hooks?: ToolCallHooks },
): Promise<AgentContext> {
  const { context, cleanup } = await createTestContext();
  cleanups.push(cleanup);
  const agentContext: AgentContext = {
    agent: { agentId: "lead", depth: 0 },
    model: undefined as never,
    system: [],
    tools: new ToolRegistry([tool]),
    thread: [],
    maxSteps: 10,
    gate: fields.gate ?? allowAllGate,
    createToolContext: () => context,
  };
  if (fields.hooks) agentContext.hooks = fields.hooks;
  return agentContext;
}

const calls = [
  { id: "c1", name: "mutate", arguments: '{"label":"one"}', input: { label: "one" } },
  { id: "c2", name: "mutate", arguments: '{"label":"two"}', input: { label: "two" } },
];

describe("an abort while a call waits before running", () => {
  it("does not run the tool when the turn is aborted while beforeToolCall runs", async () => {
    const { tool, runs } = spyTool();
    const controller = new AbortController();
    const seen: Array<AbortSignal | undefined> = [];
    const context = await contextWith(tool, {
      hooks: {
        // Like a hook that was killed by the interrupt: it returns, without a block.
        async beforeToolCall(call) {
          seen.push(call.signal);
          controller.abort();
          return undefined;
        },
      },
    });
    const events: AgentEvent[] = [];
    const results = await executeToolCalls(context, calls, {
      signal: controller.signal,
      emit: (event) => events.push(event),
    });
    expect(runs).toEqual([]);
    expect(seen).toEqual([controller.signal]);
    // Every call still gets exactly one result, in order.
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["c1", true],
      ["c2", true],
    ]);
    expect(results[0]!.output).toBe("Cancelled before it ran.");
    expect(events.filter((event) => event.type === "tool-start")).toEqual([]);
    const ends = events.filter((event) => event.type === "tool-end");
    expect(ends.map((event) => event.type === "tool-end" && [event.callId, event.refused])).toEqual([
      ["c1", "cancelled"],
      ["c2", "cancelled"],
    ]);
  });

  it("reports a refusal caused by the abort during approval as a cancellation", async () => {
    const { tool, runs } = spyTool();
    const controller = new AbortController();
    const context = await contextWith(tool, {
      gate: {
        decide: () => ({ action: "ask" }),
        async approve(request) {
          expect(request.signal).toBe(controller.signal);
          controller.abort();
          return { approved: false, reason: "killed hook" };
        },
      },
    });
    const results = await executeToolCalls(context, calls.slice(0, 1), {
      signal: controller.signal,
      emit: () => {},
    });
    expect(runs).toEqual([]);
    expect(results).toMatchObject([{ toolCallId: "c1", isError: true, output: "Cancelled before it ran." }]);
  });

  it("runs afterToolCall for a call that ran without the turn's signal (post hooks finish after Ctrl-C)", async () => {
    const { tool, runs } = spyTool();
    const controller = new AbortController();
    const after: Array<AbortSignal | undefined> = [];
    const context = await contextWith(tool, {
      hooks: {
        async afterToolCall(call) {
          after.push(call.signal);
        },
      },
    });
    await executeToolCalls(context, calls.slice(0, 1), { signal: controller.signal, emit: () => {} });
    expect(runs).toEqual([{ label: "one" }]);
    expect(after).toEqual([undefined]);
  });
});

describe("plan mode", () => {
  it("refuses a mutating call that slips through, without asking or running it", async () => {
    const { tool, runs } = spyTool();
    let asked = 0;
    const gate: ToolGate = {
      decide: () => {
        asked += 1;
        return { action: "allow" };
      },
      approve: async () => ({ approved: true, reason: "yes" }),
    };
    const context = await contextWith(tool, { gate });
    context.planMode = true;
    const results = await executeToolCalls(context, [calls[0]!], {
      signal: new AbortController().signal,
      emit: () => undefined,
    });
    expect(runs).toEqual([]);
    expect(asked).toBe(0);
    expect(JSON.stringify(results[0])).toContain("blocked in plan mode");
  });
});
