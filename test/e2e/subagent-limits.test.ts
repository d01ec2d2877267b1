import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-limits-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const waitAll = { name: "wait", arguments: { mode: "all", timeout_ms: 300_000 } };

/** The lead spawns three parents; each parent spawns four leaves and waits for them. */
function nestedFanOut(): Scenario {
  const child = { regex: "^(?!You are Nizzy)" };
  return {
    rules: [
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: {
          toolCalls: [1, 2, 3].map((n) => ({ name: "spawn_agent", arguments: { message: `parent ${n}` } })),
        },
      },
      { match: { system: LEAD, anyMessage: "parent done" }, response: { text: "All fifteen finished." } },
      { match: { system: LEAD, lastIsToolResult: true }, response: { toolCalls: [waitAll] } },
      {
        match: { system: child, lastUser: { regex: "^parent" }, lastIsToolResult: false },
        response: {
          toolCalls: [1, 2, 3, 4].map((n) => ({
            name: "spawn_agent",
            arguments: { message: `leaf work ${n}` },
          })),
        },
      },
      {
        match: { system: child, lastUser: { regex: "^parent" }, anyMessage: "leaf done" },
        response: { text: "parent done" },
      },
      { match: { system: child, lastUser: { regex: "^parent" } }, response: { toolCalls: [waitAll] } },
      { match: { system: child, lastUser: "leaf work" }, response: { text: "leaf done", delayMs: 150 } },
    ],
  };
}

async function runFanOut(config?: string) {
  mock = await startScenario(nestedFanOut());
  if (config) {
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "config.toml"), config);
  }
  const result = await runNyz(["exec", "--json", "--full-auto", "fan out twice"], {
    cwd: workspace,
    env: anthropicEnv(mock, home),
    timeoutMs: 90_000,
  });
  expect(result.stderr).not.toMatch(/Error/);
  expect(result.code).toBe(0);
  return lines(result.stdout);
}

describe("subagent limits per parent and per session through nyz exec", () => {
  it("runs 3 parents × 4 children with the default config: all 15 agents finish, no spawn refused", async () => {
    const events = await runFanOut();
    const spawns = events.filter((event) => event.type === "tool_done" && event.name === "spawn_agent");
    expect(spawns).toHaveLength(15);
    expect(spawns.filter((event) => event.is_error)).toEqual([]);
    const completed = events.filter((event) => event.type === "subagent_completed");
    expect(completed).toHaveLength(15);
    expect(completed.filter((event) => event.depth === 2).map((event) => event.status)).toEqual(
      Array.from({ length: 12 }, () => "completed: leaf done"),
    );
    expect(completed.filter((event) => event.depth === 1).map((event) => event.status)).toEqual([
      "completed: parent done",
      "completed: parent done",
      "completed: parent done",
    ]);
    expect(events.at(-1)).toMatchObject({ type: "turn_complete", text: "All fifteen finished." });
  }, 120_000);

  it("queues instead of refusing under a session cap of 2, and the waiting parents lend their slots, so nothing deadlocks", async () => {
    const events = await runFanOut("[agent.agents]\nmax_running = 2\n");
    expect(
      events.filter((event) => event.type === "tool_done" && event.name === "spawn_agent" && event.is_error),
    ).toEqual([]);
    const queued = events.filter((event) => event.type === "subagent_queued");
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.every((event) => event.reason === "session" && event.limit === 2)).toBe(true);
    expect(events.filter((event) => event.type === "subagent_completed")).toHaveLength(15);
    expect(events.at(-1)).toMatchObject({ type: "turn_complete", text: "All fifteen finished." });
    // At most two subagents ever ran a model request at once (the lead's own are apart).
    const childRequests = mock!.requests.filter((request) => !request.system?.includes(LEAD));
    let open = 0;
    let most = 0;
    const edges = childRequests.flatMap((request) => [
      { at: request.startedAt, delta: 1 },
      { at: request.endedAt ?? request.startedAt, delta: -1 },
    ]);
    for (const edge of edges.sort((a, b) => a.at - b.at || a.delta - b.delta)) {
      open += edge.delta;
      most = Math.max(most, open);
    }
    expect(most).toBeLessThanOrEqual(2);
  }, 120_000);
});
