import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, type Rule, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../../events/agent-events.js";
import { openSession } from "../../session/open-session.js";
import type { OpenedSession } from "../../session/session-handle.js";

/**
 * Deferred built-in tools (issue 32): a session with the default configuration offers the lead
 * and each role's children the tools their turns mostly use, the rest behind `tool_search`, so
 * the lead's first request stays within 24,000 characters; a deferred tool stays callable by name.
 */

const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };

let mock: MockLlm | undefined;
let session: OpenedSession | undefined;
let root: string | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  await mock?.close();
  mock = undefined;
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** Opens a session with the default configuration on a fresh project, against the mock. */
async function sessionOn(rules: Rule[]): Promise<OpenedSession> {
  mock = await startMockLlm({ scenario: { rules } });
  root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-deferred-builtins-")));
  const workspace = join(root, "project");
  await mkdir(join(workspace, ".git"), { recursive: true });
  session = await openSession({
    cwd: workspace,
    env: {
      NYZHI_HOME: join(root, "home"),
      NYZHI_PROVIDER: "anthropic",
      NYZHI_TRUST: "full",
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      NYZHI_CREDENTIAL_STORE: "file",
      NYZHI_LOG: "silent",
    },
    headless: true,
  });
  return session;
}

async function turn(opened: OpenedSession, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of opened.runTurn(prompt)) events.push(event);
  return events;
}

const leadRequests = () => (mock?.requests ?? []).filter((request) => request.system?.startsWith(LEAD));
const bodySize = (body: unknown) => JSON.stringify(body).length;

describe("deferred built-in tools", () => {
  it("keeps the lead's first request with the default tools within 24,000 characters, naming the deferred ones", async () => {
    await turn(await sessionOn([{ response: { text: "hello" } }]), "hi");
    const [first] = leadRequests();
    console.log(`lead's first request: ${bodySize(first!.body)} characters`);
    expect(bodySize(first!.body)).toBeLessThanOrEqual(24_000);
    expect(first!.toolsOffered).toEqual(
      expect.arrayContaining([
        "read",
        "edit",
        "bash",
        "grep",
        "task",
        "spawn_agent",
        "wait",
        "todowrite",
        "tool_search",
      ]),
    );
    // Headless: nobody to answer ask_user, so it is deferred too.
    for (const deferred of [
      "git_log",
      "notepad_write",
      "team_create",
      "get_architecture_knowledge",
      "send_input",
      "ask_user",
    ]) {
      expect(first!.toolsOffered).not.toContain(deferred);
      expect(first!.system).toContain(deferred);
    }
    // Nothing to read without MCP servers.
    expect(first!.toolsOffered).not.toContain("read_mcp_resource");
  });

  it("runs a deferred tool called by name and offers it and its family in full from the next request", async () => {
    const opened = await sessionOn([
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: { toolCalls: [{ name: "git_status", arguments: {} }] },
      },
      { match: { system: LEAD }, response: { text: "checked" } },
    ]);
    const events = await turn(opened, "what changed?");
    const ran = events.find((event) => event.type === "tool-end" && event.name === "git_status");
    expect(ran).toMatchObject({ type: "tool-end" });
    expect(ran?.type === "tool-end" && ran.output).not.toMatch(/unknown tool/i);
    const [first, second] = leadRequests();
    expect(first!.toolsOffered).not.toContain("git_status");
    expect(second!.toolsOffered).toEqual(expect.arrayContaining(["git_status", "git_diff", "git_log"]));
    expect(second!.toolsOffered).not.toContain("notepad_write");
  });

  it("finds a deferred built-in with tool_search, returning its schema", async () => {
    const opened = await sessionOn([
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: { toolCalls: [{ name: "tool_search", arguments: { query: "notepad" } }] },
      },
      { match: { system: LEAD }, response: { text: "found" } },
    ]);
    const events = await turn(opened, "find the notepad");
    const found = events.find((event) => event.type === "tool-end" && event.name === "tool_search");
    expect(found?.type === "tool-end" && found.output).toContain("## notepad_write");
    expect(leadRequests()[1]!.toolsOffered).toEqual(
      expect.arrayContaining(["notepad_read", "notepad_write"]),
    );
  });

  it("gives each role's child the tools its turns use in full: a worker git_status, an explorer its whole list", async () => {
    const opened = await sessionOn([
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: {
          toolCalls: [
            { name: "task", arguments: { subagent_type: "worker", description: "part w" } },
            { name: "task", arguments: { subagent_type: "explorer", description: "part e" } },
          ],
        },
      },
      { match: { system: NOT_LEAD }, response: { text: "done" } },
      { match: { system: LEAD }, response: { text: "all done" } },
    ]);
    await turn(opened, "split it");
    const child = (task: string) => mock!.requests.find((request) => request.messages[0]?.text === task)!;
    const worker = child("part w").toolsOffered;
    expect(worker).toEqual(
      expect.arrayContaining(["read", "edit", "bash", "git_status", "git_diff", "tool_search"]),
    );
    expect(worker).not.toContain("notepad_write");
    expect(worker).not.toContain("git_log");
    // The explorer's role lists its tools: all of them in full, no tool_search.
    const explorer = child("part e").toolsOffered;
    expect(explorer).toEqual(expect.arrayContaining(["read", "grep", "glob", "git_log", "git_show"]));
    expect(explorer).not.toContain("tool_search");
  });
});
