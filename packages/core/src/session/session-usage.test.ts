import { mkdir, mkdtemp, realpath } from "node:fs/promises";
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

const LEAD = "You are Nizzy";

async function environment() {
  const root = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-session-usage-")));
  const workspace = join(root, "project");
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

async function turn(opened: OpenedSession, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of opened.runTurn(prompt)) events.push(event);
  return events;
}

describe("the session's usage, summed once in core", () => {
  it("carries core's totals on each step's usage and on turn-complete, a subagent's steps and earlier runs counted", async () => {
    mock = await startMockLlm({
      scenario: {
        rules: [
          {
            match: { system: LEAD, lastIsToolResult: false },
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
            match: { system: LEAD, lastIsToolResult: true, anyMessage: "agent_nickname" },
            times: 1,
            response: {
              toolCalls: [{ name: "wait", arguments: { mode: "all" } }],
              usage: { inputTokens: 1100, outputTokens: 20 },
            },
          },
          {
            match: { system: LEAD },
            response: { text: "done", usage: { inputTokens: 1200, outputTokens: 30 } },
          },
        ],
      },
    });
    const { workspace, env } = await environment();
    session = await openSession({ cwd: workspace, env, configOptions: { trustProject: true } });
    const events = await turn(session, "map the code");

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
    const again = await turn(session, "and again");
    const resumed = again.at(-1) as AgentEventOf<"turn-complete">;
    expect(resumed.type).toBe("turn-complete");
    expect(resumed.sinceOpen.usage.inputTokens).toBe(1200);
    expect(resumed.sessionTotal.usage.inputTokens).toBe(first.usage.inputTokens + 1200);
    expect(resumed.sessionTotal).toEqual(session.usage());
  });
});
