import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RecordedRequest } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../../runtime/testing/subagent-harness.js";
import { defineTool } from "../seam/define-tool.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
const childRequests = (h: SubagentHarness) =>
  h.mock.requests.filter((request) => !request.system?.includes(LEAD_MARK));
const leadRequests = (h: SubagentHarness) =>
  h.mock.requests.filter((request) => request.system?.includes(LEAD_MARK));
const toolEnds = (events: Awaited<ReturnType<SubagentHarness["turn"]>>) =>
  events.flatMap((event) =>
    event.type === "tool-end" && event.agent.agentId === "lead"
      ? [{ name: event.name, output: event.output, isError: event.isError ?? false }]
      : [],
  );
const overlap = (left: RecordedRequest, right: RecordedRequest) =>
  left.startedAt < right.endedAt! && right.startedAt < left.endedAt!;

describe("task through the lead's loop", () => {
  it("runs two delegations of one turn in parallel, each child seeing only its description, and returns their answers", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            text: "Delegating.",
            toolCalls: [
              {
                name: "task",
                arguments: { subagent_type: "tester", description: "Write tests for src/a.ts" },
              },
              { name: "task", arguments: { subagent_type: "doc-writer", description: "Document src/b.ts" } },
            ],
          },
        },
        { match: { system: "You are Probe" }, response: { text: "3 tests added, all green", delayMs: 300 } },
        { match: { system: "You are Quill" }, response: { text: "docs/b.md written", delayMs: 300 } },
        { match: { system: LEAD_MARK, lastIsToolResult: true }, response: { text: "Both done." } },
      ],
    });
    // Parent state that an isolated child must not see.
    await harness.runtime.todos.merge([{ id: "t1", content: "secret todo", status: "in_progress" }]);
    const events = await harness.turn("ship feature X");

    const [first, second] = childRequests(harness);
    expect(childRequests(harness)).toHaveLength(2);
    expect(overlap(first!, second!)).toBe(true);
    const byRole = Object.fromEntries(
      childRequests(harness).map((request) => [request.system!.slice(0, 14), request]),
    );
    expect(byRole["You are Probe,"]!.messages).toEqual([{ role: "user", text: "Write tests for src/a.ts" }]);
    expect(byRole["You are Quill,"]!.messages).toEqual([{ role: "user", text: "Document src/b.ts" }]);
    for (const request of childRequests(harness)) {
      expect(request.system).not.toContain("Context Briefing");
      expect(request.system).not.toContain("secret todo");
      expect(request.system).not.toContain("ship feature X");
    }
    expect(toolEnds(events)).toEqual([
      { name: "task", output: "3 tests added, all green", isError: false },
      { name: "task", output: "docs/b.md written", isError: false },
    ]);
    expect(
      leadRequests(harness)
        .at(-1)!
        .messages.at(-1)!
        .toolResults!.map((result) => result.content),
    ).toEqual(["3 tests added, all green", "docs/b.md written"]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "Both done." });
    // Ephemeral: nothing left in the manager, no slot held — but the children's usage still counts.
    expect(harness.runtime.manager!.list()).toEqual([]);
    const childInput = childRequests(harness).length > 0 ? 1 : 0;
    expect(harness.runtime.manager!.usageOf("lead").usage.inputTokens).toBeGreaterThanOrEqual(childInput);
    expect(harness.runtime.manager!.usageOf("lead").usage.outputTokens).toBeGreaterThan(0);
    expect(harness.runtime.manager!.activeCount()).toBe(0);
  });

  it("returns a failing child's error as the tool result, without retrying, and the lead goes on", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: [
              { name: "task", arguments: { subagent_type: "debugger", description: "Find the crash" } },
              { name: "task", arguments: { subagent_type: "no-such-role", description: "Anything" } },
            ],
          },
        },
        {
          match: { system: "You are Tracer" },
          response: { fault: { type: "status", status: 500, message: "backend down" } },
        },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true },
          response: { text: "I will debug it myself." },
        },
      ],
    });
    const events = await harness.turn("fix the crash");
    // In call order (tool-end events arrive in completion order).
    const results = toolEnds(events).sort((left) => (left.output.startsWith("Subagent") ? -1 : 1));
    expect(results[0]).toMatchObject({ name: "task", isError: true });
    expect(results[0]!.output).toMatch(/^Subagent 'debugger' \(\w+\) failed: errored: .*backend down/);
    expect(results[1]).toMatchObject({ name: "task", isError: true });
    expect(results[1]!.output).toMatch(
      /^Unknown subagent_type 'no-such-role'\. Available types: .*general-purpose/,
    );
    expect(childRequests(harness)).toHaveLength(1);
    expect(
      leadRequests(harness)
        .at(-1)!
        .messages.at(-1)!
        .toolResults!.map((result) => result.isError),
    ).toEqual([true, true]);
    expect(events.at(-1)).toMatchObject({
      type: "turn-end",
      reason: "completed",
      text: "I will debug it myself.",
    });
    expect(harness.runtime.manager!.activeCount()).toBe(0);
  });

  it("refuses a disabled role (task and spawn_agent) and does not offer it", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, lastIsToolResult: false },
            response: {
              toolCalls: [
                { name: "task", arguments: { subagent_type: "tester", description: "x" } },
                { name: "spawn_agent", arguments: { agent_type: "tester", message: "x" } },
              ],
            },
          },
          { match: { system: LEAD_MARK }, response: { text: "ok" } },
        ],
      },
      { configure: (config) => (config.agent.agents.roles.tester = { enabled: false }) },
    );
    const events = await harness.turn("test it");
    expect(toolEnds(events)).toEqual([
      {
        name: "task",
        output: "Role 'tester' is disabled (enabled = false in config). Enable it there or use another role.",
        isError: true,
      },
      {
        name: "spawn_agent",
        output: "Role 'tester' is disabled (enabled = false in config). Enable it there or use another role.",
        isError: true,
      },
    ]);
    const tools = (harness.mock.requests[0]!.body as { tools: { name: string; description: string }[] })
      .tools;
    for (const name of ["task", "spawn_agent"]) {
      const description = tools.find((tool) => tool.name === name)!.description;
      expect(description).toContain("`doc-writer`");
      expect(description).not.toContain("`tester`");
    }
    expect(childRequests(harness)).toEqual([]);
  });

  it("runs eight task children at once with the default config, queues a ninth and tenth (announced), and returns every whole answer", async () => {
    const answer = (index: number) => `part ${index} done: ${"x".repeat(300)}`;
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: Array.from({ length: 10 }, (_, index) => ({
              name: "task",
              arguments: { subagent_type: "general-purpose", description: `part ${index}` },
            })),
          },
        },
        ...Array.from({ length: 10 }, (_, index) => ({
          match: { system: NOT_LEAD, lastUser: `part ${index}` },
          response: { text: answer(index), delayMs: 200 },
        })),
        { match: { system: LEAD_MARK }, response: { text: "all parts done" } },
      ],
    });
    const events = await harness.turn("do ten things");
    expect(childRequests(harness)).toHaveLength(10);
    // The stream cap (3) counts the lead only; the task pool (8) bounds the children.
    expect(harness.mock.maxConcurrent).toBe(8);
    const queued = events.filter((event) => event.type === "subagent-queued");
    expect(queued.map((event) => event.type === "subagent-queued" && [event.limit, event.waiting])).toEqual([
      [8, 1],
      [8, 2],
    ]);
    expect(toolEnds(events)).toEqual(
      Array.from({ length: 10 }, (_, index) => ({ name: "task", output: answer(index), isError: false })),
    );
    expect(harness.runtime.manager!.activeCount()).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", text: "all parts done" });
  });

  it("lets task children run past max_concurrent_streams, which counts the lead only", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, lastIsToolResult: false },
            response: {
              toolCalls: Array.from({ length: 4 }, (_, index) => ({
                name: "task",
                arguments: { subagent_type: "general-purpose", description: `part ${index}` },
              })),
            },
          },
          { match: { system: NOT_LEAD }, response: { text: "part done", delayMs: 150 } },
          { match: { system: LEAD_MARK }, response: { text: "all parts done" } },
        ],
      },
      { configure: (config) => (config.agent.max_concurrent_streams = 1) },
    );
    const events = await harness.turn("do four things");
    expect(harness.mock.maxConcurrent).toBe(4);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", text: "all parts done" });
  });
});

describe("tool-role mapping and skills for task children", () => {
  const mcpEcho = defineTool({
    name: "mcp__lab__echo",
    description: "echo",
    inputSchema: z.object({}),
    kind: "read",
    mutates: false,
    execute: async () => "echo",
  });

  it("offers a role without a tool list exactly its pattern tools plus MCP tools, and core tools when nothing matches", async () => {
    const skillPath = "/nowhere/SKILL.md";
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, lastIsToolResult: false },
            response: {
              toolCalls: [
                {
                  name: "task",
                  arguments: { subagent_type: "architecture-expert", description: "how is it built?" },
                },
                { name: "task", arguments: { subagent_type: "code-analyzer", description: "analyze" } },
                { name: "task", arguments: { subagent_type: "general-purpose", description: "research" } },
              ],
            },
          },
          { match: { system: NOT_LEAD }, response: { text: "done" } },
          { match: { system: LEAD_MARK }, response: { text: "ok" } },
        ],
      },
      {
        configure: (config) => (config.agent.tool_role_patterns = { "code-analyzer": ["no-tool-has-this"] }),
        runtime: {
          extraTools: [mcpEcho],
          skills: [
            { name: "release", description: "How to cut a release", path: skillPath, source: "nyzhi" },
          ],
        },
      },
    );
    await harness.turn("go");
    const child = (mark: string) =>
      childRequests(harness!).find((request) => request.system!.startsWith(mark))!;
    expect(child("You are Cartographer").toolsOffered).toEqual([
      "directory_tree",
      "file_info",
      "fuzzy_find",
      "get_architecture_knowledge",
      "glob",
      "grep",
      "list_dir",
      "mcp__lab__echo",
      "memory_read",
      "notepad_read",
      "read",
      "semantic_search",
      "tail_file",
      "think",
      "todoread",
    ]);
    const core = child("You are a general-purpose").toolsOffered.filter((name) => !name.startsWith("mcp__"));
    expect(child("You are Lens").toolsOffered).toEqual(core);
    expect(child("You are a general-purpose").toolsOffered).toContain("mcp__lab__echo");
    // Skills: general-purpose inherits them, other roles do not.
    expect(child("You are a general-purpose").system).toContain("- **release**: How to cut a release");
    expect(child("You are Cartographer").system).not.toContain("Available Skills");
    expect(child("You are Lens").system).not.toContain("How to cut a release");
  });

  it("lets a child reach get_architecture_knowledge on the project", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, lastIsToolResult: false },
            response: {
              toolCalls: [
                { name: "task", arguments: { subagent_type: "architecture-expert", description: "routes?" } },
              ],
            },
          },
          {
            match: { system: "You are Cartographer", lastIsToolResult: false },
            response: {
              toolCalls: [{ name: "get_architecture_knowledge", arguments: { section: "endpoints" } }],
            },
          },
          {
            match: { system: "You are Cartographer", lastIsToolResult: true },
            response: { text: "One route: GET /ping" },
          },
          { match: { system: LEAD_MARK }, response: { text: "ok" } },
        ],
      },
      {
        beforeRoles: async (workspace) => {
          await mkdir(join(workspace, "src"), { recursive: true });
          await writeFile(
            join(workspace, "src/app.ts"),
            'const app = express();\napp.get("/ping", (req, res) => res.end());\n',
          );
        },
      },
    );
    const events = await harness.turn("what routes exist?");
    const analysis = childRequests(harness).at(-1)!.messages.at(-1)!.toolResults![0]!.content;
    expect(analysis).toContain("- GET /ping — src/app.ts:2");
    expect(toolEnds(events)).toEqual([{ name: "task", output: "One route: GET /ping", isError: false }]);
  });
});
