import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../events/agent-events.js";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lead = { agentId: "lead", depth: 0 };
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };

const toolEnd = (events: AgentEvent[], name: string, agentId?: string) =>
  events.find(
    (event) =>
      event.type === "tool-end" &&
      event.name === name &&
      (agentId === undefined || event.agent.agentId === agentId),
  ) as Extract<AgentEvent, { type: "tool-end" }> | undefined;

describe("what the parent model reads of its subagents", () => {
  it("gets a child's whole answer in the wait result, not a preview", async () => {
    const answer = `Findings: ${"the parser drops trailing commas; ".repeat(60)}END`;
    expect(answer.length).toBeGreaterThan(1_900);
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "find the bug" } }] },
        },
        { match: { system: NOT_LEAD }, response: { text: answer } },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD_MARK }, response: { text: "done" } },
      ],
    });
    const events = await harness.turn("investigate");
    const waited = JSON.parse(toolEnd(events, "wait", "lead")!.output) as { status: Record<string, string> };
    expect(Object.values(waited.status)).toEqual([`completed: ${answer}`]);
    const last = harness.mock.requests.at(-1)!;
    expect(JSON.stringify(last.messages)).toContain(answer.slice(-200));
  });
});

describe("errors a model can act on", () => {
  it("tells a depth-2 agent that calls spawn_agent about the depth limit, and a fenced explorer that bash is not its tool", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "spawn_agent", arguments: { agent_type: "worker", message: "level one" } },
              { name: "spawn_agent", arguments: { agent_type: "explorer", message: "scout" } },
            ],
          },
        },
        {
          match: { lastUser: "level one", lastIsToolResult: false },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "level two" } }] },
        },
        {
          match: { lastUser: "level one", lastIsToolResult: true, anyMessage: "agent_nickname" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { lastUser: "level one" }, response: { text: "level one done" } },
        {
          match: { lastUser: "level two", lastIsToolResult: false },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "level three" } }] },
        },
        { match: { lastUser: "level two" }, response: { text: "level two done" } },
        {
          match: { lastUser: "scout", lastIsToolResult: false },
          response: { toolCalls: [{ name: "bash", arguments: { command: "ls" } }] },
        },
        { match: { lastUser: "scout" }, response: { text: "scouted" } },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD_MARK }, response: { text: "all done" } },
      ],
    });
    const events = await harness.turn("go deep");
    const depthTwo = events.find(
      (event) => event.type === "tool-end" && event.name === "spawn_agent" && event.agent.depth === 2,
    ) as Extract<AgentEvent, { type: "tool-end" }>;
    expect(depthTwo.isError).toBe(true);
    expect(depthTwo.output).toMatch(
      /^Agent depth limit \(2\) reached: `spawn_agent` is not available at depth 2; do this yourself\./,
    );
    const fenced = events.find(
      (event) => event.type === "tool-end" && event.name === "bash" && event.agent.role === "explorer",
    ) as Extract<AgentEvent, { type: "tool-end" }>;
    expect(fenced.isError).toBe(true);
    expect(fenced.output).toMatch(/^`bash` is not available to the explorer role\. Available tools: /);
    expect(fenced.output).not.toContain("Unknown tool");
  });

  it("answers a spawn of a disabled role in a full batch with the disabled error, not the full queue", async () => {
    harness = await startSubagentHarness(
      { rules: [{ response: { text: "working", delayMs: 400 } }] },
      {
        configure: (config) => {
          config.agent.agents.max_threads = 1;
          config.agent.agents.max_queued = 0;
          config.agent.agents.roles.reviewer = { enabled: false };
        },
      },
    );
    const manager = harness.runtime.manager!;
    await manager.spawn({ parent: lead, message: "fill the only slot" });
    await expect(manager.spawn({ parent: lead, message: "review", roleName: "reviewer" })).rejects.toThrow(
      /disabled/,
    );
    await expect(manager.spawn({ parent: lead, message: "another" })).rejects.toThrow(/Agent queue full/);
    expect(manager.activeCount()).toBe(1);
  });
});
