import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, type NyzhiConfig } from "@nyzhi/config";
import { type MockLlm, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentEvent } from "../events/agent-events.js";
import { createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { defineTool } from "../tools/seam/define-tool.js";
import { mockLanguageModel } from "./testing/mock-language-model.js";
import { expectConsistentHistory, processesRunning } from "./testing/turn-checks.js";

let mock: MockLlm;
let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-loop-")));
});
afterEach(async () => {
  await mock?.close();
});

function fullTrustConfig(): NyzhiConfig {
  const config = defaultConfig();
  config.agent.trust.mode = "full";
  return config;
}

async function runtimeFor(scenario: Scenario, options: { tools?: ReturnType<typeof defineTool>[] } = {}) {
  mock = await startMockLlm({ scenario });
  const model = mockLanguageModel(mock, { modelId: "claude-sonnet-4-5" });
  return createAgentRuntime({
    config: fullTrustConfig(),
    model,
    cwd: workspace,
    ...(options.tools ? { tools: options.tools } : {}),
  });
}

async function collect(events: AsyncGenerator<AgentEvent, unknown>): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("runTurn end to end through the Anthropic SDK", () => {
  it("reads, greps, edits and runs bash in a git repo, answering every call once and keeping the text", async () => {
    await mkdir(join(workspace, "src"));
    await writeFile(join(workspace, "src", "greet.js"), 'console.log("hello world");\n');
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    const runtime = await runtimeFor({
      rules: [
        {
          match: { requestIndex: 1 },
          response: {
            text: "I'll look around first.",
            toolCalls: [
              { name: "read", arguments: { file_path: "src/greet.js" } },
              { name: "grep", arguments: { pattern: "hello", path: "." } },
            ],
          },
        },
        {
          match: { requestIndex: 2, lastIsToolResult: true },
          response: {
            text: "Changing the greeting.",
            toolCalls: [
              {
                name: "edit",
                arguments: { file_path: "src/greet.js", old_string: "hello", new_string: "goodbye" },
              },
            ],
          },
        },
        {
          match: { requestIndex: 3, lastIsToolResult: true },
          response: {
            toolCalls: [
              { name: "bash", arguments: { command: "node src/greet.js > out.txt && cat out.txt" } },
            ],
          },
        },
        {
          match: { requestIndex: 4, lastIsToolResult: true },
          response: { text: "Done: the greeting says goodbye." },
        },
      ],
    });

    const events = await collect(runtime.runTurn("fix the greeting"));

    expect(await readFile(join(workspace, "src", "greet.js"), "utf8")).toBe(
      'console.log("goodbye world");\n',
    );
    expect(await readFile(join(workspace, "out.txt"), "utf8")).toBe("goodbye world\n");
    expect(mock.requests).toHaveLength(4);

    // What the model was sent: its own text kept beside its tool calls, each call answered once, in order.
    const second = mock.requests[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(second[1]).toMatchObject({ text: "I'll look around first." });
    const firstCalls = second[1]!.toolCalls!.map((call) => call.id);
    expect(firstCalls).toHaveLength(2);
    expect(second[2]!.toolResults!.map((result) => result.id)).toEqual(firstCalls);
    expect(second[2]!.toolResults![0]!.content).toContain('1|console.log("hello world");');
    expect(second[2]!.toolResults![1]!.content).toContain("src/greet.js:1:");
    const last = mock.requests[3]!.messages;
    expect(last.filter((message) => message.role === "assistant").map((message) => message.text)).toEqual([
      "I'll look around first.",
      "Changing the greeting.",
      "",
    ]);
    expect(last.at(-1)!.toolResults![0]!.content).toContain("goodbye world");
    expectConsistentHistory(runtime.context.thread);

    const types = events.map((event) => event.type);
    expect(types[0]).toBe("turn-start");
    expect(types.at(-1)).toBe("turn-end");
    expect(events.at(-1)).toMatchObject({
      reason: "completed",
      steps: 4,
      text: "Done: the greeting says goodbye.",
    });
    const ended = events
      .filter((event) => event.type === "tool-end")
      .map((event) => (event.type === "tool-end" ? event.name : ""));
    // read and grep ran in parallel, so either may finish first.
    expect([...ended.slice(0, 2)].sort()).toEqual(["grep", "read"]);
    expect(ended.slice(2)).toEqual(["edit", "bash"]);
    expect(events.filter((event) => event.type === "usage")).toHaveLength(4);

    // Undo restores the edited file and removes nothing else the turn did not create.
    const report = await runtime.tracker.undoLastTurn();
    expect(report).toBeDefined();
    expect(await readFile(join(workspace, "src", "greet.js"), "utf8")).toBe('console.log("hello world");\n');
  });

  it("runs read-only calls of one step in parallel and mutating ones one at a time, in order", async () => {
    const spans: Record<string, { start: number; end: number }> = {};
    const slow = (name: string, mutates: boolean) =>
      defineTool({
        name,
        description: `sleeps, ${mutates ? "mutating" : "read-only"}`,
        inputSchema: z.object({ label: z.string() }),
        kind: mutates ? "edit" : "read",
        mutates,
        async execute({ label }) {
          const start = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 150));
          spans[label] = { start, end: Date.now() };
          return label;
        },
      });
    const runtime = await runtimeFor(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "slow_read", arguments: { label: "r1" } },
                { name: "slow_read", arguments: { label: "r2" } },
                { name: "slow_read", arguments: { label: "r3" } },
                { name: "slow_write", arguments: { label: "w1" } },
                { name: "slow_write", arguments: { label: "w2" } },
              ],
            },
          },
          { response: { text: "ok" } },
        ],
      },
      { tools: [slow("slow_read", false), slow("slow_write", true)] },
    );
    await collect(runtime.runTurn("go"));
    const reads = ["r1", "r2", "r3"].map((label) => spans[label]!);
    expect(Math.max(...reads.map((span) => span.start))).toBeLessThan(
      Math.min(...reads.map((span) => span.end)),
    );
    const [w1, w2] = [spans.w1!, spans.w2!];
    expect(w1.start).toBeGreaterThanOrEqual(Math.max(...reads.map((span) => span.end)));
    expect(w2.start).toBeGreaterThanOrEqual(w1.end);
    const results = runtime.context.thread.find((message) => message.role === "tool");
    expect(results?.role === "tool" && results.content.map((result) => result.output)).toEqual([
      "r1",
      "r2",
      "r3",
      "w1",
      "w2",
    ]);
  });

  it("stops within 500 ms when aborted during a long bash call, with a consistent history and no child left", async () => {
    // A unique duration marks our processes; under bwrap their pids live in another namespace,
    // so they are found by command line in /proc instead.
    const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
    const runtime = await runtimeFor({
      rules: [
        {
          match: { requestIndex: 1 },
          response: {
            text: "Running it.",
            toolCalls: [
              { name: "bash", arguments: { command: `sh -c 'sleep ${marker}' & sleep ${marker}; wait` } },
            ],
          },
        },
        { response: { text: "should not be asked" } },
      ],
    });
    const controller = new AbortController();
    let abortedAt = 0;
    const events: AgentEvent[] = [];
    const started: number[] = [];
    for await (const event of runtime.runTurn("start a long job", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "tool-start") {
        setTimeout(async () => {
          started.push(...(await processesRunning(`sleep ${marker}`)));
          abortedAt = Date.now();
          controller.abort();
        }, 300);
      }
    }
    const endedAt = Date.now();
    expect(endedAt - abortedAt).toBeLessThan(500);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "aborted" });
    expect(mock.requests).toHaveLength(1);
    expectConsistentHistory(runtime.context.thread);
    expect(runtime.context.thread.at(-1)?.role).toBe("tool");

    expect(started.length).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await processesRunning(`sleep ${marker}`)).toEqual([]);
  });
});
