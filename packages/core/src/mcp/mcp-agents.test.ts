import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../events/agent-events.js";
import { READ_TOOLS } from "../roles/role-definition.js";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
} from "../runtime/testing/subagent-harness.js";
import { startHttpMcpServer, type TestHttpMcpServer } from "./__fixtures__/http-server.js";
import { labSpec } from "./__fixtures__/lab-spec.js";
import type { McpNotice } from "./mcp-manager.js";
import { startMcpSession } from "./mcp-session.js";

let harness: SubagentHarness | undefined;
let http: TestHttpMcpServer | undefined;
const notices: McpNotice[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await http?.close();
  http = undefined;
  notices.length = 0;
});

const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
const mcpNames = (names: readonly string[]) => names.filter((name) => name.startsWith("mcp__"));
const toolEnds = (events: AgentEvent[]) =>
  events.flatMap((event) => (event.type === "tool-end" ? [event] : []));

/** The lab (stdio) and docs (Streamable HTTP, bearer header) servers, started for the session. */
async function labAndDocs(workspace: string) {
  http = await startHttpMcpServer({ token: "s3cret" });
  return startMcpSession({
    config: { mcp: { servers: {} } },
    projectRoot: workspace,
    env: { PATH: process.env.PATH },
    onNotice: (notice) => notices.push(notice),
    servers: [
      labSpec("lab", [], { env: { LAB_TOKEN: "t-1" } }),
      {
        name: "docs",
        transport: "http",
        url: http.url,
        headers: { Authorization: "Bearer s3cret" },
        enabled: true,
        source: ".mcp.json",
      },
    ],
  });
}

describe("MCP tools through the agent loop", () => {
  it("the lead and an explorer both call stdio and HTTP MCP tools; the explorer sees only what its role allows", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { system: LEAD_MARK, requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "mcp__lab__echo", arguments: { message: "from lead" } },
                { name: "mcp__docs__lookup", arguments: { term: "LGTM" } },
              ],
            },
          },
          {
            match: { system: LEAD_MARK, lastIsToolResult: true },
            times: 1,
            response: {
              toolCalls: [
                { name: "spawn_agent", arguments: { agent_type: "explorer", message: "check the docs" } },
              ],
            },
          },
          {
            match: { system: NOT_LEAD, lastIsToolResult: false },
            response: {
              toolCalls: [
                { name: "mcp__lab__echo", arguments: { message: "from explorer" } },
                { name: "mcp__docs__lookup", arguments: { term: "PTAL" } },
              ],
            },
          },
          {
            match: { system: NOT_LEAD, lastIsToolResult: true },
            response: { text: "explorer: both tools answered" },
          },
          {
            match: { system: LEAD_MARK, anyMessage: "agent_nickname" },
            times: 1,
            response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
          },
          { match: { system: LEAD_MARK }, response: { text: "All done." } },
        ],
      },
      {
        mcp: labAndDocs,
        configure: (config) => {
          // The explorer's tool fence: read tools plus the lab server and one docs tool.
          config.agent.agents.roles.explorer = {
            enabled: true,
            allowed_tools: [...READ_TOOLS, "mcp__lab__*", "mcp__docs__lookup"],
          };
        },
      },
    );
    const events = await harness.turn("use the MCP tools");
    const requests = harness.mock.requests;
    const lead = requests.filter((request) => request.system?.includes(LEAD_MARK));
    const child = requests.filter((request) => !request.system?.includes(LEAD_MARK));

    expect(mcpNames(lead[0]!.toolsOffered)).toEqual([
      "mcp__docs__deploy",
      "mcp__docs__lookup",
      "mcp__lab__add_tool",
      "mcp__lab__crash",
      "mcp__lab__echo",
      "mcp__lab__fail",
      "mcp__lab__snapshot",
      "mcp__lab__write_note",
    ]);
    expect(lead[0]!.toolsOffered).toContain("read_mcp_resource");
    expect(lead[0]!.system).toContain("# MCP Servers");
    expect(lead[0]!.system).toContain("- docs: 2 tool(s), named mcp__docs__<tool>");
    expect(lead[1]!.messages.at(-1)!.toolResults!.map((result) => result.content)).toEqual([
      `echo: from lead (cwd ${harness.workspace}, token t-1)`,
      'docs: LGTM means "ship it"',
    ]);

    // Read-only role: the mutating lab tools are dropped; docs only `lookup`.
    expect(mcpNames(child[0]!.toolsOffered)).toEqual([
      "mcp__docs__lookup",
      "mcp__lab__echo",
      "mcp__lab__fail",
      "mcp__lab__snapshot",
    ]);
    expect(child[1]!.messages.at(-1)!.toolResults!.map((result) => result.content)).toEqual([
      `echo: from explorer (cwd ${harness.workspace}, token t-1)`,
      'docs: PTAL means "ship it"',
    ]);
    const childEnds = toolEnds(harness.events).filter((event) => event.agent.role === "explorer");
    expect(childEnds.map((event) => [event.name, event.isError])).toEqual([
      ["mcp__lab__echo", false],
      ["mcp__docs__lookup", false],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "turn-end", reason: "completed", text: "All done." });
    expect(notices).toEqual([]);
  });

  it("maps images, resource links and isError; read_mcp_resource reads the linked resource", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "mcp__lab__snapshot", arguments: {} },
                { name: "mcp__lab__fail", arguments: {} },
                { name: "read_mcp_resource", arguments: { server: "lab", uri: "lab://reports/1" } },
                { name: "mcp__lab__echo", arguments: { message: 5 } },
              ],
            },
          },
          { response: { text: "ok" } },
        ],
      },
      { mcp: labAndDocs, configure: (config) => (config.agent.agents.enabled = false) },
    );
    const events = await harness.turn("look");
    // Read-only calls run in parallel: order the results by the order of the calls.
    const order = ["mcp__lab__snapshot", "mcp__lab__fail", "read_mcp_resource", "mcp__lab__echo"];
    const ends = toolEnds(events).sort((left, right) => order.indexOf(left.name) - order.indexOf(right.name));
    expect(ends.map((event) => ({ name: event.name, output: event.output, isError: event.isError }))).toEqual(
      [
        {
          name: "mcp__lab__snapshot",
          output:
            "here is the picture\n\n[image: image/png, 70 bytes]\n\n[resource link: report-1 <lab://reports/1> (text/plain)] — read it with read_mcp_resource",
          isError: false,
        },
        { name: "mcp__lab__fail", output: "the sample is contaminated", isError: true },
        {
          name: "read_mcp_resource",
          output: "[resource lab://reports/1]\nReport 1: all samples nominal.",
          isError: false,
        },
        {
          name: "mcp__lab__echo",
          output: "Invalid arguments for mcp__lab__echo:\n- message: expected string",
          isError: true,
        },
      ],
    );
    expect(ends[0]!.metadata).toEqual({
      images: [{ type: "image", mediaType: "image/png", data: expect.stringMatching(/^iVBOR/) }],
    });
  });

  it("a server that crashes mid-session is reported and the session goes on", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: { toolCalls: [{ name: "mcp__lab__crash", arguments: {} }] },
          },
          {
            match: { requestIndex: 2 },
            response: {
              delayMs: 300,
              toolCalls: [
                { name: "mcp__lab__echo", arguments: { message: "still there?" } },
                { name: "mcp__docs__lookup", arguments: { term: "after" } },
              ],
            },
          },
          { response: { text: "carried on without lab" } },
        ],
      },
      { mcp: labAndDocs, configure: (config) => (config.agent.agents.enabled = false) },
    );
    const events = await harness.turn("crash it");
    expect(notices.map((notice) => [notice.server, notice.kind])).toEqual([["lab", "crashed"]]);
    const ends = toolEnds(events);
    expect(ends[1]).toMatchObject({ name: "mcp__lab__echo", isError: true });
    expect(ends[1]!.output).toMatch(
      /^(Unknown tool: mcp__lab__echo|MCP server "lab" failed to run echo: MCP server "lab" is crashed)/,
    );
    expect(ends[2]).toMatchObject({
      name: "mcp__docs__lookup",
      isError: false,
      output: 'docs: after means "ship it"',
    });
    expect(mcpNames(harness.mock.requests[2]!.toolsOffered)).toEqual([
      "mcp__docs__deploy",
      "mcp__docs__lookup",
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "turn-end",
      reason: "completed",
      text: "carried on without lab",
    });
  });

  it("MCP tools ask for approval unless trusted and obey deny rules", async () => {
    const asked: string[] = [];
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "mcp__lab__echo", arguments: { message: "a" } },
                { name: "mcp__lab__write_note", arguments: { note: "n" } },
                { name: "mcp__docs__deploy", arguments: { target: "prod" } },
              ],
            },
          },
          { response: { text: "ok" } },
        ],
      },
      {
        mcp: labAndDocs,
        approve: async (request) => {
          asked.push(request.tool);
          return request.tool === "mcp__lab__write_note" ? "deny" : "allow";
        },
        configure: (config) => {
          config.agent.agents.enabled = false;
          config.agent.trust.mode = "off";
          config.agent.trust.deny_tools = ["mcp__docs__deploy"];
        },
      },
    );
    const events = await harness.turn("go");
    expect(asked).toEqual(["mcp__lab__echo", "mcp__lab__write_note"]);
    expect(toolEnds(events).map((event) => [event.name, event.isError, event.refused])).toEqual([
      ["mcp__lab__echo", false, undefined],
      ["mcp__lab__write_note", true, "denied"],
      ["mcp__docs__deploy", true, "denied"],
    ]);
    expect(toolEnds(events)[2]!.output).toContain('blocked by the deny_tools rule "mcp__docs__deploy"');
  });

  it("under a read-only sandbox only the tools a server marks read-only run", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          {
            match: { requestIndex: 1 },
            response: {
              toolCalls: [
                { name: "mcp__lab__echo", arguments: { message: "a" } },
                { name: "mcp__lab__write_note", arguments: { note: "n" } },
              ],
            },
          },
          { response: { text: "ok" } },
        ],
      },
      {
        mcp: labAndDocs,
        configure: (config) => {
          config.agent.agents.enabled = false;
          config.agent.sandbox = "read-only";
        },
      },
    );
    const ends = toolEnds(await harness.turn("go"));
    expect(ends.map((event) => [event.name, event.isError])).toEqual([
      ["mcp__lab__echo", false],
      ["mcp__lab__write_note", true],
    ]);
    expect(ends[1]!.output).toContain("write operations are blocked in read-only sandbox");
  });
});
