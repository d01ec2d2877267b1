import { mkdir, mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { addUsage, emptyUsage } from "@nyzhi/provider";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent, AgentEventOf } from "../events/agent-events.js";
import { openSession } from "./open-session.js";
import type { OpenedSession } from "./session-handle.js";

let mock: MockLlm | undefined;
let session: OpenedSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
  await mock?.close();
  mock = undefined;
});

async function setup(trust = "off") {
  const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-session-protocol-")));
  const workspace = join(root, "project");
  await mkdir(join(workspace, ".git"), { recursive: true });
  const env = {
    NYZHI_HOME: join(root, "home"),
    NYZHI_PROVIDER: "anthropic",
    NYZHI_TRUST: trust,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: `${mock!.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
    NYZHI_LOG: "silent",
  };
  return { root, workspace, env };
}

/** Runs a turn, answering each event that asks with `reply`; returns the turn's events. */
async function runAnswering(
  opened: OpenedSession,
  prompt: string,
  reply: (event: AgentEvent) => Parameters<OpenedSession["answer"]>[1] | undefined,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of opened.runTurn(prompt)) {
    events.push(event);
    const answer = reply(event);
    if (answer !== undefined && (event.type === "approval-requested" || event.type === "question"))
      expect(opened.answer(event.id, answer)).toBe(true);
  }
  return events;
}

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

describe("the session protocol", () => {
  it("tells the host everything as events: opened, notices with their source, hook results", async () => {
    mock = await startMockLlm({ scenario: { rules: [{ response: { text: "hi" } }] } });
    const { workspace, env } = await setup("full");
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    await writeFile(
      join(workspace, ".nyzhi", "config.toml"),
      '[[agent.hooks]]\nevent = "session_start"\ncommand = "echo started"\n\n[mcp.servers.broken]\ncommand = "/nonexistent/mcp-server"\n',
    );
    const heard: AgentEvent[] = [];
    session = await openSession({
      cwd: workspace,
      env,
      configOptions: { trustProject: true },
      host: { onEvent: (event) => heard.push(event) },
    });
    expect(heard[0]).toMatchObject({
      type: "session-opened",
      agent: { agentId: "lead", depth: 0 },
      sessionId: session.id,
      providerId: "anthropic",
    });
    expect(heard).toContainEqual(
      expect.objectContaining({ type: "notice", source: "mcp", level: "warning", server: "broken" }),
    );
    expect(heard).toContainEqual(
      expect.objectContaining({ type: "hook-result", event: "session_start", status: "ok" }),
    );
  });

  it("asks approvals as events with an id, answered by session.answer; allow always is core's rule, listed and forgotten", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          { match: { lastUser: "one", lastIsToolResult: false }, response: bash("echo one > one.txt") },
          { match: { lastUser: "two", lastIsToolResult: false }, response: bash("echo two > two.txt") },
          { match: { lastUser: "three", lastIsToolResult: false }, response: bash("echo three") },
          { match: { lastUser: "four", lastIsToolResult: false }, response: bash("echo four") },
          { response: { text: "done" } },
        ],
      },
    });
    const { workspace, env } = await setup("off");
    session = await openSession({ cwd: workspace, env, host: { interactive: true } });
    const opened = session;
    // A command chained with another is never covered by a prefix: "echo one > one.txt" asks.
    const first = await runAnswering(opened, "one", () => "allow");
    expect(first.filter((event) => event.type === "approval-requested")).toHaveLength(1);
    const second = await runAnswering(opened, "three", () => "allow-always");
    const asked = second.find((event) => event.type === "approval-requested");
    expect(asked).toMatchObject({ id: expect.any(String), tool: "bash", input: { command: "echo three" } });
    expect(second).toContainEqual(
      expect.objectContaining({
        type: "notice",
        source: "permissions",
        message: "Allowed for this session: bash `echo three …`",
      }),
    );
    const rules = opened.permissions.list().filter((rule) => rule.kind === "allow-always");
    expect(rules).toEqual([
      expect.objectContaining({ tool: "bash", match: { commandPrefix: "echo three" }, kind: "allow-always" }),
    ]);
    expect(opened.permissions.list().map((rule) => rule.id)).toEqual(
      expect.arrayContaining(["trust-mode", "sandbox"]),
    );
    // Not asked again for the same prefix …
    const again = await runAnswering(opened, "three", () => "deny");
    expect(again.some((event) => event.type === "approval-requested")).toBe(false);
    // … until the rule is forgotten.
    expect(opened.permissions.forget(rules[0]!.id)).toBe(true);
    expect(opened.permissions.forget(rules[0]!.id)).toBe(false);
    const after = await runAnswering(opened, "three", () => ({ deny: "not now" }));
    expect(after.find((event) => event.type === "approval-resolved")).toMatchObject({
      approved: false,
      reason: "denied by the user: not now",
    });
    expect(opened.answer("approval-999", "allow")).toBe(false);
  });

  it("asks ask_user as a question event answered with { text }", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { lastIsToolResult: false },
            response: {
              toolCalls: [
                {
                  name: "ask_user",
                  arguments: {
                    question: "Which colour?",
                    options: [
                      { value: "red", label: "Red" },
                      { value: "blue", label: "Blue" },
                    ],
                  },
                },
              ],
            },
          },
          { response: { text: "ok" } },
        ],
      },
    });
    const { workspace, env } = await setup("full");
    session = await openSession({ cwd: workspace, env, host: { interactive: true } });
    const events = await runAnswering(session, "pick", (event) =>
      event.type === "question" ? { text: "Blue" } : undefined,
    );
    expect(mock.requests[0]?.toolsOffered).toContain("ask_user");
    expect(events.find((event) => event.type === "question")).toMatchObject({
      question: "Which colour?",
      choices: ["Red", "Blue"],
    });
    expect(events.find((event) => event.type === "tool-end")).toMatchObject({
      output: "User selected: blue",
    });
  });

  it("a host that answers nothing gets approvals denied at once, ask_user not offered", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          { match: { lastIsToolResult: false }, response: bash("touch x") },
          { response: { text: "ok" } },
        ],
      },
    });
    const { workspace, env } = await setup("off");
    session = await openSession({ cwd: workspace, env });
    const events = await runAnswering(session, "go", () => undefined);
    expect(events.find((event) => event.type === "approval-resolved")).toMatchObject({ approved: false });
    expect(mock.requests[0]?.toolsOffered).not.toContain("ask_user");
    await expect(readFile(join(workspace, "x"), "utf8")).rejects.toThrow();
  });
});

describe("the session's usage, summed once in core", () => {
  it("carries core's totals on each step's usage and on turn-complete, a subagent's steps and earlier runs counted", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { system: "You are Nizzy", lastIsToolResult: false },
            times: 1,
            response: {
              toolCalls: [
                { name: "spawn_agent", arguments: { agent_type: "explorer", message: "look around" } },
              ],
              usage: { inputTokens: 1000, outputTokens: 50 },
            },
          },
          {
            match: { system: "You are Scout" },
            response: { text: "explored", usage: { inputTokens: 4000, outputTokens: 800 } },
          },
          {
            match: { system: "You are Nizzy", lastIsToolResult: true, anyMessage: "agent_nickname" },
            times: 1,
            response: {
              toolCalls: [{ name: "wait", arguments: { mode: "all" } }],
              usage: { inputTokens: 1100, outputTokens: 20 },
            },
          },
          {
            match: { system: "You are Nizzy" },
            response: { text: "done", usage: { inputTokens: 1200, outputTokens: 30 } },
          },
        ],
      },
    });
    const { workspace, env } = await setup("full");
    session = await openSession({ cwd: workspace, env, configOptions: { trustProject: true } });
    const events = await runAnswering(session, "map the code", () => undefined);

    const steps = events.filter((event): event is AgentEventOf<"usage"> => event.type === "usage");
    expect(steps.some((event) => event.agent.depth === 1)).toBe(true);
    const summed = steps.reduce((total, event) => addUsage(total, event.usage), emptyUsage());
    expect(summed.inputTokens).toBe(1000 + 4000 + 1100 + 1200);
    // Each step's event carries the session's total with it counted: the running sum, in order.
    let running = emptyUsage();
    for (const event of steps) {
      running = addUsage(running, event.usage);
      expect(event.sessionTotal.usage).toEqual(running);
    }
    const scout = steps.find((event) => event.agent.depth === 1)!;
    expect(scout.agentTotal.usage).toMatchObject({ inputTokens: 4000, outputTokens: 800 });
    // The child factory told the ledger its parent: its step counts in the lead's subtree, and
    // the lead's `descendants` is what its subagents spent.
    expect(scout.subtreeTotals.map((entry) => entry.agentId)).toEqual([scout.agent.agentId, "lead"]);
    expect(scout.subtreeTotals[0]!.subtree.usage.inputTokens).toBe(4000);
    expect(scout.subtreeTotals[1]!.descendants.usage.inputTokens).toBe(4000);
    const last = steps.at(-1)!;
    expect(last.agent.depth).toBe(0);
    expect(last.subtreeTotals.at(-1)!.subtree.usage.inputTokens).toBe(1000 + 4000 + 1100 + 1200);

    const complete = events.at(-1)!;
    expect(complete.type).toBe("turn-complete");
    if (complete.type !== "turn-complete") return;
    expect(complete).toMatchObject({ reason: "completed", text: "done", sessionId: session.id });
    expect(complete.sessionTotal).toEqual(session.usage());
    expect(complete.sinceOpen.usage).toEqual(summed);
    expect(session.costReport().total).toEqual({ usage: summed, costUsd: session.usage().costUsd });
    const first = complete.sessionTotal;
    await session.close();

    // Resumed: the session's totals start from the saved ones; this process's from zero.
    session = await openSession({
      cwd: workspace,
      env,
      configOptions: { trustProject: true },
      resume: { latest: true },
    });
    const again = await runAnswering(session, "and again", () => undefined);
    const resumed = again.at(-1) as AgentEventOf<"turn-complete">;
    expect(resumed.type).toBe("turn-complete");
    expect(resumed.sinceOpen.usage.inputTokens).toBe(1200);
    expect(resumed.sessionTotal.usage.inputTokens).toBe(first.usage.inputTokens + 1200);
    expect(resumed.sessionTotal).toEqual(session.usage());
  });
});
