import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "@nyzhi/config";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { mockLanguageModel } from "../../agent-loop/testing/mock-language-model.js";
import type { AgentEvent } from "../../events/agent-events.js";
import { type AgentRuntime, createAgentRuntime } from "../../runtime/create-agent-runtime.js";
import { thinkTool } from "../planning/think-tool.js";
import { defineTool } from "../seam/define-tool.js";

let mock: MockLlm;
let workspace: string;
const ran: string[] = [];

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-deferred-")));
  ran.length = 0;
});
afterEach(async () => {
  await mock?.close();
  await rm(workspace, { recursive: true, force: true });
});

const deferredTools = Array.from({ length: 20 }, (_, index) =>
  defineTool({
    name: `mcp__lab__tool_${String(index).padStart(2, "0")}`,
    description: index === 7 ? "Measure the frobnication level of a sample." : `Lab utility number ${index}.`,
    inputSchema: z.object({ sample: z.string() }),
    kind: "read",
    mutates: false,
    async execute({ sample }) {
      ran.push(`${index}:${sample}`);
      return `frobnication of ${sample}: 42`;
    },
  }),
);

/** A lead with `think` plus 20 deferred tools, talking Anthropic to the mock server. */
function runtimeWithDeferredTools(): AgentRuntime {
  const model = mockLanguageModel(mock);
  const config = defaultConfig();
  config.agent.trust.mode = "full";
  config.agent.agents.enabled = false;
  return createAgentRuntime({ config, model, cwd: workspace, tools: [thinkTool], deferredTools });
}

describe("deferred tools through the real loop", () => {
  it("offers tool_search, expands what it finds, and runs the found tool next step", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { requestIndex: 1 },
            response: { toolCalls: [{ name: "tool_search", arguments: { query: "frobnication" } }] },
          },
          {
            match: { requestIndex: 2, lastIsToolResult: true },
            response: { toolCalls: [{ name: "mcp__lab__tool_07", arguments: { sample: "S1" } }] },
          },
          { match: { requestIndex: 3, lastIsToolResult: true }, response: { text: "It is 42." } },
        ],
      },
    });
    const runtime = runtimeWithDeferredTools();

    const events: AgentEvent[] = [];
    for await (const event of runtime.runTurn("how frobnicated is S1?")) events.push(event);

    expect(mock.requests).toHaveLength(3);
    const [first, second, third] = mock.requests;
    expect(first!.toolsOffered).toEqual(["think", "tool_search"]);
    expect(second!.toolsOffered).toEqual(["mcp__lab__tool_07", "think", "tool_search"]);
    expect(second!.messages.at(-1)!.toolResults![0]!.content).toContain("## mcp__lab__tool_07");
    expect(third!.toolsOffered).toEqual(["mcp__lab__tool_07", "think", "tool_search"]);
    expect(third!.messages.at(-1)!.toolResults![0]).toMatchObject({ content: "frobnication of S1: 42" });
    expect(ran).toEqual(["7:S1"]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "It is 42." });
  });

  it("runs a deferred tool called by name without a search, and offers it from the next step", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { requestIndex: 1 },
            response: { toolCalls: [{ name: "mcp__lab__tool_03", arguments: { sample: "S2" } }] },
          },
          { match: { requestIndex: 2 }, response: { text: "done" } },
        ],
      },
    });
    const runtime = runtimeWithDeferredTools();

    for await (const _event of runtime.runTurn("use tool 3")) {
      // drain
    }
    expect(ran).toEqual(["3:S2"]);
    expect(mock.requests[0]!.toolsOffered).not.toContain("mcp__lab__tool_03");
    expect(mock.requests[1]!.toolsOffered).toEqual(["mcp__lab__tool_03", "think", "tool_search"]);
  });
});
