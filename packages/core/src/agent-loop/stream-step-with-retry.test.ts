import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "@nyzhi/config";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../events/agent-events.js";
import { createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { defineTool } from "../tools/seam/define-tool.js";
import type { StepRetryPolicy } from "./agent-context.js";
import { mockLanguageModel } from "./testing/mock-language-model.js";
import { expectConsistentHistory } from "./testing/turn-checks.js";

let mock: MockLlm | undefined;
let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-step-retry-")));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Records each call it runs; read-only so it runs without approval. */
function countingTool(calls: string[]) {
  return defineTool({
    name: "note",
    description: "notes a label",
    inputSchema: z.object({ label: z.string() }),
    kind: "read",
    mutates: false,
    async execute({ label }) {
      calls.push(label);
      return `noted ${label}`;
    },
  });
}

async function runtimeFor(
  scenario: Scenario,
  stepRetry: Partial<StepRetryPolicy> = {},
  tools: ReturnType<typeof defineTool>[] = [],
  providerId: "anthropic" | "openai" = "anthropic",
) {
  mock = await startMockLlm({ scenario });
  const runtime = createAgentRuntime({
    config: defaultConfig(),
    model: mockLanguageModel(mock, { providerId }),
    cwd: workspace,
    tools,
  });
  const waits: number[] = [];
  runtime.context.stepRetry = {
    maxRetries: 2,
    initialBackoffMs: 40,
    maxBackoffMs: 100,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...stepRetry,
  };
  return { runtime, waits };
}

async function collect(events: AsyncGenerator<AgentEvent, unknown>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const STREAMED = new Set(["step-start", "text-delta", "tool-call-start", "retry", "tool-start", "error"]);
const LEAD = { agentId: "lead", depth: 0 };

/** Anthropic events: message_start, ping, text block start, deltas… — 5 cuts inside the third delta. */
const CUT_TEXT = {
  text: ["Partial ", "words ", "lost."],
  fault: { type: "cut" as const, afterChunks: 5 },
};

describe("a step whose stream breaks off mid-message", () => {
  it("is sent again with the same thread; consumers are told what to discard; the thread has no partial", async () => {
    const { runtime, waits } = await runtimeFor({
      rules: [{ times: 1, response: CUT_TEXT }, { response: { text: ["Clean."] } }],
    });
    const events = await collect(runtime.runTurn("go"));
    expect(events.filter((event) => STREAMED.has(event.type))).toEqual([
      { type: "step-start", agent: LEAD, step: 1 },
      { type: "text-delta", agent: LEAD, delta: "Partial " },
      { type: "text-delta", agent: LEAD, delta: "words " },
      {
        type: "retry",
        agent: LEAD,
        attempt: 1,
        maxAttempts: 2,
        waitMs: waits[0],
        reason: expect.any(String),
        discard: { text: "Partial words ", reasoning: false, toolCalls: [] },
      },
      { type: "text-delta", agent: LEAD, delta: "Clean." },
    ]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(20);
    expect(waits[0]).toBeLessThanOrEqual(40);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", steps: 1, text: "Clean." });
    expect(mock!.requests.map((request) => request.messages)).toEqual([
      [{ role: "user", text: "go" }],
      [{ role: "user", text: "go" }],
    ]);
    expect(runtime.context.thread).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "Clean." }] },
    ]);
  });

  it("runs none of the cut message's tool calls, even a whole one, and each of the retry's once", async () => {
    const calls: string[] = [];
    const toolCalls = [
      { name: "note", arguments: { label: "first" } },
      { name: "note", arguments: { label: "second" } },
    ];
    const { runtime } = await runtimeFor(
      {
        rules: [
          // message_start, ping, call 1 start/3 deltas/stop, call 2 start, its first delta; then cut.
          { times: 1, response: { toolCalls, fault: { type: "cut", afterChunks: 9 } } },
          { match: { lastIsToolResult: true }, response: { text: "done" } },
          { response: { toolCalls } },
        ],
      },
      {},
      [countingTool(calls)],
    );
    const events = await collect(runtime.runTurn("go"));
    const retry = events.find((event) => event.type === "retry");
    expect(retry?.type === "retry" && retry.discard).toEqual({
      text: "",
      reasoning: false,
      toolCalls: [
        { callId: expect.stringMatching(/^toolu_/), name: "note" },
        { callId: expect.stringMatching(/^toolu_/), name: "note" },
      ],
    });
    expect(calls).toEqual(["first", "second"]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "done" });
    const cutIds = retry?.type === "retry" ? (retry.discard?.toolCalls.map((call) => call.callId) ?? []) : [];
    const thread = runtime.context.thread;
    expect(thread.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(JSON.stringify(thread)).not.toMatch(new RegExp(cutIds.join("|")));
    expectConsistentHistory(thread);
  });

  it("is retried over the OpenAI wire format too", async () => {
    const { runtime } = await runtimeFor(
      {
        rules: [
          {
            times: 1,
            response: { text: ["Partial ", "words ", "lost."], fault: { type: "cut", afterChunks: 3 } },
          },
          { response: { text: "Clean." } },
        ],
      },
      {},
      [],
      "openai",
    );
    const events = await collect(runtime.runTurn("go"));
    const retry = events.find((event) => event.type === "retry");
    expect(retry?.type === "retry" && retry.discard?.text).toMatch(/^Partial /);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "Clean." });
    expect(runtime.context.thread).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "Clean." }] },
    ]);
  });

  it("ends the turn as aborted, with no partial in the thread, when aborted during the wait", async () => {
    const controller = new AbortController();
    const { runtime } = await runtimeFor(
      { rules: [{ times: 1, response: CUT_TEXT }, { response: { text: "Clean." } }] },
      {
        sleep: async () => {
          controller.abort();
          throw new Error("aborted");
        },
      },
    );
    const events = await collect(runtime.runTurn("go", { signal: controller.signal }));
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "aborted", text: "" });
    expect(events.some((event) => event.type === "error")).toBe(false);
    expect(mock!.requests).toHaveLength(1);
    expect(runtime.context.thread).toEqual([{ role: "user", content: "go" }]);
  });

  it("fails the turn once retries are spent, keeping no partial message", async () => {
    const { runtime } = await runtimeFor({ rules: [{ response: CUT_TEXT }] }, { maxRetries: 1 });
    const events = await collect(runtime.runTurn("go"));
    expect(events.filter((event) => event.type === "retry")).toHaveLength(1);
    expect(events.find((event) => event.type === "error")).toMatchObject({
      fatal: true,
      code: "stream_interrupted",
    });
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "error" });
    expect(mock!.requests).toHaveLength(2);
    expect(runtime.context.thread).toEqual([{ role: "user", content: "go" }]);
  });

  it("leaves a failure before any content to the provider's retry", async () => {
    const { runtime } = await runtimeFor({
      rules: [{ response: { fault: { type: "status", status: 500, afterChunks: 2 } } }],
    });
    const events = await collect(runtime.runTurn("go"));
    expect(events.filter((event) => event.type === "retry")).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "error" });
    expect(mock!.requests).toHaveLength(1);
  });
});
