import { mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../events/agent-events.js";
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

const LEAD = "You are Nizzy";

async function setup() {
  const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-open-session-")));
  const workspace = join(root, "project");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(join(workspace, ".git"), { recursive: true });
  const env = {
    NYZHI_HOME: join(root, "home"),
    NYZHI_PROVIDER: "anthropic",
    NYZHI_TRUST: "full",
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: `${mock!.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
    NYZHI_LOG: "silent",
  };
  return { workspace, env };
}

async function drain(turn: AsyncGenerator<AgentEvent, unknown>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await turn.next();
    if (next.done) return events;
    events.push(next.value);
  }
}

describe("openSession", () => {
  it("runs turns, saves after each, and continues the latest session counting a restored subagent's usage once", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { system: LEAD, lastUser: "delegate", lastIsToolResult: false },
            response: {
              toolCalls: [
                { name: "task", arguments: { subagent_type: "general-purpose", description: "count" } },
              ],
              usage: { inputTokens: 100, outputTokens: 10 },
            },
          },
          {
            match: { system: { regex: "^(?!You are Nizzy)" } },
            response: { text: "7 files", usage: { inputTokens: 1000, outputTokens: 100 } },
          },
          {
            match: { system: LEAD },
            response: { text: "noted", usage: { inputTokens: 100, outputTokens: 10 } },
          },
        ],
      },
    });
    const { workspace, env } = await setup();
    session = await openSession({ cwd: workspace, env });
    await drain(session.runTurn("delegate"));
    // Lead: 2 requests of 100 input tokens; child: 1 of 1,000.
    expect(session.usage().usage.inputTokens).toBe(1_200);
    const id = session.id;
    await session.close();

    session = await openSession({ cwd: workspace, env, resume: { latest: true } });
    expect(session.id).toBe(id);
    expect(session.record.messages.length).toBeGreaterThan(2);
    await drain(session.runTurn("and now?"));
    // One more lead request; the restored child's usage is not counted again.
    expect(session.usage().usage.inputTokens).toBe(1_300);
    expect(session.record.meta.usage?.inputTokens).toBe(1_300);
    const last = mock.requests.at(-1)!;
    expect(last.messages.map((message) => message.text)).toContain("delegate");
  });

  it("switches the lead's model for the next request", async () => {
    mock = await startMockLlm({ scenario: { rules: [{ response: { text: "ok" } }] } });
    const { workspace, env } = await setup();
    session = await openSession({ cwd: workspace, env });
    await drain(session.runTurn("one"));
    await session.setModel("anthropic/claude-haiku-4-5-20251022");
    await drain(session.runTurn("two"));
    expect(mock.requests.map((request) => request.model)).toEqual([
      mock.requests[0]!.model,
      "claude-haiku-4-5-20251022",
    ]);
    expect(session.model.modelId).toBe("claude-haiku-4-5-20251022");
  });

  it("delivers a message queued during a turn at the lead's next step boundary", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { lastUser: "list", lastIsToolResult: false },
            response: { toolCalls: [{ name: "glob", arguments: { pattern: "*" } }], delayMs: 150 },
          },
          { response: { text: "done" } },
        ],
      },
    });
    const { workspace, env } = await setup();
    session = await openSession({ cwd: workspace, env });
    const turn = drain(session.runTurn("list"));
    await mock.waitForRequests(1, 5_000);
    expect(session.queueMessage("also the tests folder")).toBe(1);
    const delivered = (await turn).flatMap((event) =>
      event.type === "queued-delivered" ? [event.texts] : [],
    );
    expect(delivered).toEqual([["also the tests folder"]]);
    const second = mock.requests[1]!;
    expect(second.messages.map((message) => message.text)).toContain("also the tests folder");
    expect(session.takeQueued()).toEqual([]);
  });

  it("gives the next child of a role the model set for it this session, and the role's own after a reset", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { system: LEAD, lastIsToolResult: false },
            response: {
              toolCalls: [{ name: "task", arguments: { subagent_type: "explorer", description: "look" } }],
            },
          },
          { match: { system: { regex: "^(?!You are Nizzy)" } }, response: { text: "seen" } },
          { match: { system: LEAD }, response: { text: "ok" } },
        ],
      },
    });
    const { workspace, env } = await setup();
    session = await openSession({ cwd: workspace, env });
    session.setSubagentModel("explorer", "anthropic/claude-haiku-4-5-20251022");
    expect(session.subagentModels()).toEqual({ explorer: "anthropic/claude-haiku-4-5-20251022" });
    await drain(session.runTurn("first"));
    session.setSubagentModel("explorer", undefined);
    await drain(session.runTurn("second"));
    const children = mock.requests.filter((request) => !request.system?.includes(LEAD));
    expect(children.map((request) => request.model)).toEqual([
      "claude-haiku-4-5-20251022",
      mock.requests[0]!.model,
    ]);
  });

  it("expands a custom /command and refuses an unknown one as a usage error", async () => {
    mock = await startMockLlm({ scenario: { rules: [{ response: { text: "ok" } }] } });
    const { workspace, env } = await setup();
    session = await openSession({ cwd: workspace, env });
    await expect(session.expandCommand("/nope now")).rejects.toMatchObject({ code: "usage" });
    expect(await session.expandCommand("plain text")).toBe("plain text");
  });
});
