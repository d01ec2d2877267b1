import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { modelForTier } from "@nyzhi/provider";
import { afterEach, describe, expect, it } from "vitest";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const leadResults = (events: Awaited<ReturnType<SubagentHarness["turn"]>>) =>
  events.flatMap((event) =>
    event.type === "tool-end" && event.agent.agentId === "lead"
      ? [{ name: event.name, output: event.output, isError: event.isError ?? false }]
      : [],
  );

describe("define_agent, then spawn it in the same session", () => {
  it("writes .nyzhi/agents.json, refuses bad definitions with reasons, and the next spawn uses the new role", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "define_agent",
                arguments: {
                  name: "fact-checker",
                  description: "Verifies claims against the code",
                  prompt: "You are FactChecker. Verify the claim you are given.",
                  tools: ["Read", "grep"],
                  model: "haiku",
                },
              },
              { name: "define_agent", arguments: { name: "Fact Checker", description: "d", prompt: "p" } },
              { name: "define_agent", arguments: { name: "empty", description: "d", prompt: "  " } },
              {
                name: "define_agent",
                arguments: { name: "future", description: "d", prompt: "p", model: "gpt-9000" },
              },
            ],
          },
        },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true, anyMessage: "Defined agent" },
          times: 1,
          response: {
            toolCalls: [
              { name: "spawn_agent", arguments: { agent_type: "fact-checker", message: "Is X true?" } },
            ],
          },
        },
        { match: { system: "You are FactChecker" }, response: { text: "X is true (src/x.ts:3)" } },
        {
          match: { system: LEAD_MARK, lastIsToolResult: true, anyMessage: "agent_nickname" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD_MARK }, response: { text: "Checked." } },
      ],
    });
    const events = await harness.turn("make a fact checker and use it");
    const results = leadResults(events);
    expect(results.slice(0, 4)).toEqual([
      {
        name: "define_agent",
        output: `Defined agent 'fact-checker' in the project agents.json (${join(harness.workspace, ".nyzhi/agents.json")}).\nUse it now with spawn_agent (agent_type "fact-checker") or task (subagent_type "fact-checker").`,
        isError: false,
      },
      {
        name: "define_agent",
        output:
          "define_agent refused 'Fact Checker':\n- name 'Fact Checker' is invalid: use only lowercase letters, digits, '-' and '_' (pattern [a-z0-9_-]+)",
        isError: true,
      },
      {
        name: "define_agent",
        output: "define_agent refused 'empty':\n- prompt must be a non-empty string",
        isError: true,
      },
      {
        name: "define_agent",
        output:
          "define_agent refused 'future':\n- model 'gpt-9000' is unknown: use inherit, sonnet, opus, haiku, or a model id listed by `nyz models`",
        isError: true,
      },
    ]);
    expect(JSON.parse(await readFile(join(harness.workspace, ".nyzhi/agents.json"), "utf8"))).toEqual({
      "fact-checker": {
        description: "Verifies claims against the code",
        prompt: "You are FactChecker. Verify the claim you are given.",
        tools: ["Read", "grep"],
        model: "haiku",
      },
    });
    const child = harness.mock.requests.find((request) => request.system?.startsWith("You are FactChecker"))!;
    expect(child.toolsOffered).toEqual(["grep", "read"]);
    expect(child.model).toBe(modelForTier("anthropic", "low")!.id);
    expect(results.find((result) => result.name === "wait")!.output).toContain(
      "completed: X is true (src/x.ts:3)",
    );
    // The role list offered to the lead is read per request, so the new agent shows up at once.
    const second = harness.mock.requests.filter((request) => request.system?.includes(LEAD_MARK))[1]!;
    const tools = (second.body as { tools: { name: string; description: string }[] }).tools;
    expect(tools.find((tool) => tool.name === "spawn_agent")!.description).toContain(
      "- `fact-checker`: Verifies claims against the code",
    );
    expect(tools.find((tool) => tool.name === "task")!.description).toContain("- `fact-checker`:");
  });

  it("refuses a subagent's write to the global file, saying only the lead may", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "task",
                arguments: { subagent_type: "general-purpose", description: "define a global agent" },
              },
            ],
          },
        },
        {
          match: { system: "You are a general-purpose", lastIsToolResult: false },
          response: {
            toolCalls: [
              {
                name: "define_agent",
                arguments: { name: "g", description: "d", prompt: "p", scope: "global" },
              },
              { name: "remove_agent", arguments: { name: "g", scope: "global" } },
            ],
          },
        },
        {
          match: { system: "You are a general-purpose", lastIsToolResult: true },
          response: { text: "refused" },
        },
        { match: { system: LEAD_MARK }, response: { text: "ok" } },
      ],
    });
    await harness.turn("go");
    const childLast = harness.mock.requests
      .filter((request) => request.system?.startsWith("You are a general-purpose"))
      .at(-1)!;
    expect(childLast.messages.at(-1)!.toolResults).toEqual([
      {
        id: expect.any(String),
        isError: true,
        content:
          'define_agent with scope "global" is refused: only the lead agent (depth 0) may write the global agents.json; subagents may use scope "project".',
      },
      {
        id: expect.any(String),
        isError: true,
        content:
          'remove_agent with scope "global" is refused: only the lead agent (depth 0) may write the global agents.json; subagents may use scope "project".',
      },
    ]);
    await expect(stat(join(harness.workspace, ".nyzhi-home/config/agents.json"))).rejects.toThrow();
  });
});

describe("a corrupted agents.json", () => {
  it("is reported and left untouched; the other definitions still load and run", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, lastIsToolResult: false },
            response: {
              toolCalls: [
                { name: "list_agents", arguments: {} },
                { name: "define_agent", arguments: { name: "new-one", description: "d", prompt: "p" } },
              ],
            },
          },
          {
            match: { system: LEAD_MARK, lastIsToolResult: true, anyMessage: "list_agents" },
            times: 1,
            response: {
              toolCalls: [{ name: "task", arguments: { subagent_type: "helper", description: "help" } }],
            },
          },
          { match: { system: "You are Helper" }, response: { text: "helped" } },
          { match: { system: LEAD_MARK }, response: { text: "ok" } },
        ],
      },
      {
        beforeRoles: async (workspace) => {
          await mkdir(join(workspace, ".nyzhi"), { recursive: true });
          await writeFile(join(workspace, ".nyzhi/agents.json"), "{ oops");
          await mkdir(join(workspace, ".nyzhi-home/config"), { recursive: true });
          await writeFile(
            join(workspace, ".nyzhi-home/config/agents.json"),
            JSON.stringify({ helper: { description: "Helps", prompt: "You are Helper." } }),
          );
        },
      },
    );
    const events = await harness.turn("go");
    const results = leadResults(events);
    const projectPath = join(harness.workspace, ".nyzhi/agents.json");
    expect(results[0]!.output).toBe(
      [
        `global agents.json (${join(harness.workspace, ".nyzhi-home/config/agents.json")}):`,
        "- helper: Helps",
        "",
        `project agents.json (${projectPath}): skipped — it is not valid JSON (${(() => {
          try {
            JSON.parse("{ oops");
          } catch (error) {
            return (error as Error).message;
          }
        })()})`,
      ].join("\n"),
    );
    expect(results[1]).toEqual({
      name: "define_agent",
      output: expect.stringMatching(
        /agents\.json is not valid JSON .*It was left untouched; fix or remove it by hand/,
      ),
      isError: true,
    });
    expect(await readFile(projectPath, "utf8")).toBe("{ oops");
    expect(results.find((result) => result.name === "task")).toEqual({
      name: "task",
      output: "helped",
      isError: false,
    });
  });
});
