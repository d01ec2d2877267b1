import { afterEach, describe, expect, it } from "vitest";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../runtime/testing/subagent-harness.js";
import { labSpec } from "./__fixtures__/lab-spec.js";
import { mcpPromptCommands } from "./mcp-prompt-commands.js";
import { startMcpSession } from "./mcp-session.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const mcpNames = (names: readonly string[]) => names.filter((name) => name.startsWith("mcp__"));

describe("deferred MCP tools", () => {
  it("20 tools from a real server are deferred: the model sees tool_search, finds one, and calls it", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: { toolCalls: [{ name: "tool_search", arguments: { query: "frobnication" } }] },
          },
          {
            match: { requestIndex: 2 },
            response: { toolCalls: [{ name: "mcp__many__tool_07", arguments: { sample: "S1" } }] },
          },
          {
            match: { requestIndex: 3 },
            response: { toolCalls: [{ name: "mcp__many__tool_03", arguments: { sample: "S2" } }] },
          },
          { response: { text: "It is 42." } },
        ],
      },
      {
        configure: (config) => (config.agent.agents.enabled = false),
        mcp: (workspace) =>
          startMcpSession({
            config: { mcp: { servers: {} } },
            projectRoot: workspace,
            env: { PATH: process.env.PATH },
            servers: [labSpec("many", ["--tools=20"])],
          }),
      },
    );
    const events = await harness.turn("how frobnicated is S1?");
    const [first, second, third, fourth] = harness.mock.requests;
    expect(mcpNames(first!.toolsOffered)).toEqual([]);
    expect(first!.toolsOffered).toContain("tool_search");
    expect(first!.system).toContain("# More Tools\n\n20 more tools");
    expect(second!.messages.at(-1)!.toolResults![0]!.content).toContain("## mcp__many__tool_07");
    expect(mcpNames(second!.toolsOffered)).toEqual(["mcp__many__tool_07"]);
    expect(third!.messages.at(-1)!.toolResults![0]!.content).toBe("tool_07 measured S1: 42");
    // Called by name without a search: runs, and is offered from then on.
    expect(fourth!.messages.at(-1)!.toolResults![0]!.content).toBe("tool_03 measured S2: 42");
    expect(mcpNames(fourth!.toolsOffered)).toEqual(["mcp__many__tool_03", "mcp__many__tool_07"]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "It is 42." });
  });
});

describe("role-only MCP servers", () => {
  it("a disabled server a role names starts only for that role's children", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "spawn_agent", arguments: { agent_type: "librarian", message: "look it up" } },
                { name: "spawn_agent", arguments: { agent_type: "default", message: "plain child" } },
              ],
            },
          },
          {
            match: { system: "You are the librarian", lastIsToolResult: false },
            response: { toolCalls: [{ name: "mcp__vault__echo", arguments: { message: "secret" } }] },
          },
          { match: { system: { regex: "^(?!You are Nizzy)" } }, response: { text: "child done" } },
          {
            match: { system: LEAD_MARK, anyMessage: "agent_nickname" },
            times: 1,
            response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
          },
          { match: { system: LEAD_MARK }, response: { text: "done" } },
        ],
      },
      {
        configure: (config) => {
          config.agent.agents.roles.librarian = {
            enabled: true,
            description: "Looks things up in the vault.",
            system_prompt: "You are the librarian.",
            mcp_servers: ["vault"],
          };
        },
        mcp: (workspace) =>
          startMcpSession({
            config: { mcp: { servers: {} } },
            projectRoot: workspace,
            env: { PATH: process.env.PATH },
            servers: [labSpec("lab"), { ...labSpec("vault"), enabled: false }],
          }),
      },
    );
    await harness.turn("go");
    const requests = harness.mock.requests;
    const lead = requests.filter((request) => request.system?.includes(LEAD_MARK));
    const librarian = requests.filter((request) => request.system?.includes("You are the librarian"));
    const plain = requests.filter(
      (request) => !request.system?.includes(LEAD_MARK) && !request.system?.includes("You are the librarian"),
    );
    for (const request of [...lead, ...plain]) {
      expect(request.toolsOffered.some((name) => name.startsWith("mcp__vault__"))).toBe(false);
    }
    expect(plain[0]!.toolsOffered).toContain("mcp__lab__echo");
    // The role names only vault: its children get vault's tools and not lab's.
    expect(mcpNames(librarian[0]!.toolsOffered)).toEqual([
      "mcp__vault__add_tool",
      "mcp__vault__crash",
      "mcp__vault__echo",
      "mcp__vault__fail",
      "mcp__vault__snapshot",
      "mcp__vault__write_note",
    ]);
    expect(librarian[1]!.messages.at(-1)!.toolResults![0]!.content).toMatch(/^echo: secret/);
  });
});

describe("MCP prompts as commands", () => {
  it("lists a server's prompts as mcp__<server>__<prompt> commands that expand through the server", async () => {
    const session = await startMcpSession({
      config: { mcp: { servers: {} } },
      projectRoot: process.cwd(),
      env: { PATH: process.env.PATH },
      servers: [labSpec("lab")],
    });
    try {
      const commands = await mcpPromptCommands(session.manager);
      expect(
        commands.map(({ name, description, argumentHint, source }) => ({
          name,
          description,
          argumentHint,
          source,
        })),
      ).toEqual([
        {
          name: "mcp__lab__review",
          description: "Review a lab sample.",
          argumentHint: "[sample]",
          source: "mcp",
        },
      ]);
      expect(await commands[0]!.expand("S-9 please")).toBe("Please review sample S-9 please carefully.");
    } finally {
      await session.close();
    }
  });
});
