import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { READ_TOOLS } from "@nyzhi/core";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const READ_ONLY = new Set<string>(READ_TOOLS);

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-agents-");
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

function fanOutScenario(): Scenario {
  return {
    rules: [
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: {
          toolCalls: [1, 2, 3].map((n) => ({
            name: "spawn_agent",
            arguments: { agent_type: "explorer", message: `look at area ${n}` },
          })),
        },
      },
      { match: { system: "You are Scout" }, response: { text: "area explored", delayMs: 300 } },
      {
        match: { system: LEAD, lastIsToolResult: true, anyMessage: "agent_nickname" },
        times: 1,
        response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
      },
      { match: { system: LEAD }, response: { text: "Everything mapped." } },
    ],
  };
}

describe("subagents through nyz exec", () => {
  it("fans out three explorers in parallel, streams their events, and saves their threads with the session", async () => {
    mock = await startScenario(fanOutScenario());
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    const marker = join(workspace, "hooks.log");
    await writeFile(
      join(workspace, ".nyzhi", "config.toml"),
      `[[agent.hooks]]\nevent = "subagent_start"\ncommand = "echo start >> ${marker}"\n\n[[agent.hooks]]\nevent = "subagent_end"\ncommand = "echo end >> ${marker}"\n`,
    );
    // --trust-project: a project's hooks run only in a trusted project.
    const result = await runNyz(["exec", "--json", "--full-auto", "--trust-project", "map the code"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = lines(result.stdout);
    const spawned = events.filter((event) => event.type === "subagent_spawned");
    expect(spawned).toHaveLength(3);
    // Each child names the lead's call that started it (hosts show it under that call).
    const taskCalls = events.filter(
      (event) => event.type === "tool_start" && (event.name === "task" || event.name === "spawn_agent"),
    );
    expect(spawned.map((event) => event.call_id).sort()).toEqual(taskCalls.map((event) => event.id).sort());
    const completed = events.filter((event) => event.type === "subagent_completed");
    expect(completed.map((event) => event.status)).toEqual([
      "completed: area explored",
      "completed: area explored",
      "completed: area explored",
    ]);
    expect(events.filter((event) => event.type === "turn_complete")).toHaveLength(1);
    expect(mock.maxConcurrent).toBeGreaterThanOrEqual(3);
    const children = mock.requests.filter((request) => request.system?.includes("You are Scout"));
    expect(children).toHaveLength(3);
    for (const child of children) {
      expect(child.system).toContain("# Context Briefing (from parent)");
      for (const tool of child.toolsOffered) expect(READ_ONLY.has(tool)).toBe(true);
    }
    const summary = events.at(-1)!;
    expect(summary).toMatchObject({ type: "turn_complete", reason: "completed" });
    const leadInput = mock.requests.filter((request) => request.system?.includes(LEAD)).length;
    expect(Number(summary.input_tokens)).toBeGreaterThan(leadInput); // children's tokens are counted too
    expect((await readFile(marker, "utf8")).split("\n").filter(Boolean).sort()).toEqual([
      "end",
      "end",
      "end",
      "start",
      "start",
      "start",
    ]);

    const [sessionFile] = await readdir(join(home, "data", "sessions"));
    const saved = JSON.parse(await readFile(join(home, "data", "sessions", sessionFile!), "utf8"));
    expect(Object.values(saved.agents).map((agent) => (agent as { role: string }).role)).toEqual([
      "explorer",
      "explorer",
      "explorer",
    ]);
    const exported = await runNyz(["export", String(saved.meta.id).slice(0, 8), "-o", "out.md"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(exported.code).toBe(0);
    expect(
      (await readFile(join(workspace, "out.md"), "utf8")).match(
        /# Subagent .* \(explorer, depth 1, completed/g,
      ),
    ).toHaveLength(3);
  });

  it("resumes a finished child after --continue with its earlier turns", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false, lastUser: "first" },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "count the files" } }] },
        },
        {
          match: { system: { regex: "^(?!You are Nizzy)" }, lastUser: "count the files" },
          times: 1,
          response: { text: "12 files" },
        },
        {
          match: { system: LEAD, lastIsToolResult: true, lastUser: "first" },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: {} }] },
        },
        { match: { system: LEAD, lastUser: "first" }, response: { text: "spawned and done" } },
        { response: { text: "fallback" } },
      ],
    });
    const env = anthropicEnv(mock, home);
    expect((await runNyz(["exec", "-q", "--full-auto", "first"], { cwd: workspace, env })).code).toBe(0);
    const [sessionFile] = await readdir(join(home, "data", "sessions"));
    const saved = JSON.parse(await readFile(join(home, "data", "sessions", sessionFile!), "utf8"));
    const childId = Object.keys(saved.agents)[0]!;

    mock.setScenario({
      rules: [
        {
          match: { system: LEAD, lastUser: "second", lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "resume_agent", arguments: { id: childId, message: "and the tests?" } }],
          },
        },
        {
          match: { system: { regex: "^(?!You are Nizzy)" }, lastUser: "and the tests?" },
          response: { text: "3 tests" },
        },
        {
          match: { system: LEAD, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { ids: [childId] } }] },
        },
        { match: { system: LEAD }, response: { text: "resumed" } },
      ],
    });
    const second = await runNyz(["exec", "--json", "--full-auto", "--continue", "second"], {
      cwd: workspace,
      env,
    });
    expect(second.code).toBe(0);
    const resumedRequest = mock.requests.find(
      (request) => request.messages.at(-1)?.text === "and the tests?",
    )!;
    expect(resumedRequest.messages.map((message) => message.text)).toEqual([
      "count the files",
      "12 files",
      "and the tests?",
    ]);
    const waitDone = lines(second.stdout).find(
      (event) => event.type === "tool_done" && event.name === "wait",
    )!;
    expect(JSON.parse(String(waitDone.output)).status[childId]).toBe("completed: 3 tests");
  });

  it("sends --subagent-model to the child's request", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [{ name: "spawn_agent", arguments: { agent_type: "explorer", message: "peek" } }],
          },
        },
        { match: { system: "You are Scout" }, response: { text: "peeked" } },
        {
          match: { system: LEAD, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: {} }] },
        },
        { response: { text: "ok" } },
      ],
    });
    const result = await runNyz(
      ["exec", "-q", "--full-auto", "--subagent-model", "explorer=anthropic/claude-haiku-4-5-20251022", "go"],
      { cwd: workspace, env: anthropicEnv(mock, home) },
    );
    expect(result.code).toBe(0);
    expect(mock.requests.find((request) => request.system?.includes("You are Scout"))?.model).toBe(
      "claude-haiku-4-5-20251022",
    );
    expect(mock.requests[0]!.model).toBe("claude-sonnet-4-6-20260217");
  });
});

describe("subagent limits through nyz exec", () => {
  it("queues a spawn beyond agent.agents.max_threads (per parent) and runs it when a slot frees", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: {
            toolCalls: [1, 2, 3].map((n) => ({ name: "spawn_agent", arguments: { message: `part ${n}` } })),
          },
        },
        { match: { system: { regex: "^(?!You are Nizzy)" } }, response: { text: "done", delayMs: 200 } },
        {
          match: { system: LEAD, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD }, response: { text: "ok" } },
      ],
    });
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "config.toml"), "[agent.agents]\nmax_threads = 2\n");
    const result = await runNyz(["exec", "--json", "--full-auto", "split it"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const spawns = lines(result.stdout).filter(
      (event) => event.type === "tool_done" && event.name === "spawn_agent",
    );
    expect(spawns).toHaveLength(3);
    expect(spawns.filter((event) => String(event.output).includes("agent_id"))).toHaveLength(3);
    expect(spawns.filter((event) => String(event.output).includes('"status":"queued"'))).toHaveLength(1);
    const events = lines(result.stdout);
    expect(events.filter((event) => event.type === "subagent_queued")).toMatchObject([
      { reason: "parent", limit: 2, waiting: 1 },
    ]);
    expect(
      events.filter((event) => event.type === "subagent_completed").map((event) => event.status),
    ).toEqual(["completed: done", "completed: done", "completed: done"]);
  });
});

/** The most requests of `requests` that were open at one moment. */
function maxInFlight(requests: readonly { startedAt: number; endedAt?: number | undefined }[]): number {
  const edges = requests.flatMap((request) => [
    { at: request.startedAt, delta: 1 },
    { at: request.endedAt ?? Number.POSITIVE_INFINITY, delta: -1 },
  ]);
  edges.sort((left, right) => left.at - right.at || left.delta - right.delta);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.delta;
    most = Math.max(most, open);
  }
  return most;
}

describe("fan-out at full width through nyz exec", () => {
  const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
  const answer = (index: number) => `report ${index}: ${"finding ".repeat(250)}end ${index}`;

  function fanOut(tool: "task" | "spawn_agent"): Scenario {
    const calls = Array.from({ length: 8 }, (_, index) =>
      tool === "task"
        ? { name: "task", arguments: { subagent_type: "general-purpose", description: `part ${index}` } }
        : { name: "spawn_agent", arguments: { message: `part ${index}` } },
    );
    return {
      rules: [
        { match: { system: LEAD, lastIsToolResult: false }, response: { toolCalls: calls } },
        ...Array.from({ length: 8 }, (_, index) => ({
          match: { system: NOT_LEAD, lastUser: `part ${index}` },
          response: { text: answer(index), delayMs: 400 },
        })),
        ...(tool === "spawn_agent"
          ? [
              {
                match: { system: LEAD, lastIsToolResult: true },
                times: 1,
                response: { toolCalls: [{ name: "wait", arguments: { mode: "all" as const } }] },
              },
            ]
          : []),
        { match: { system: LEAD }, response: { text: "all parts read" } },
      ],
    };
  }

  it("runs 8 task calls of one response at once with the default config and gives the lead 8 whole answers", async () => {
    mock = await startScenario(fanOut("task"));
    const result = await runNyz(["exec", "--json", "--full-auto", "split it eight ways"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const children = mock.requests.filter((request) => !request.system?.includes(LEAD));
    expect(children).toHaveLength(8);
    expect(maxInFlight(children)).toBe(8);
    const final = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1)!;
    const sent = JSON.stringify(final.messages);
    for (let index = 0; index < 8; index += 1)
      expect(sent).toContain(JSON.stringify(answer(index)).slice(1, -1));
  });

  it("runs 8 spawn_agent children at once with max_threads = 8 and wait returns each whole answer", async () => {
    mock = await startScenario(fanOut("spawn_agent"));
    await mkdir(join(workspace, ".nyzhi"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "config.toml"), "[agent.agents]\nmax_threads = 8\n");
    const result = await runNyz(["exec", "--json", "--full-auto", "split it eight ways"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const children = mock.requests.filter((request) => !request.system?.includes(LEAD));
    expect(maxInFlight(children)).toBe(8);
    const waited = lines(result.stdout).filter(
      (event) => event.type === "tool_done" && event.name === "wait",
    );
    const statuses = waited.flatMap((event) => Object.values(JSON.parse(String(event.output)).status));
    expect(statuses.sort()).toEqual(
      Array.from({ length: 8 }, (_, index) => `completed: ${answer(index)}`).sort(),
    );
    const final = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1)!;
    expect(JSON.stringify(final.messages)).toContain(`end 7`);
  });

  it("hands the lead a 2,000-character child answer whole in its next request", async () => {
    const long = `The cause: ${"a stale cache entry survives the reload; ".repeat(50)}THE END`;
    expect(long.length).toBeGreaterThanOrEqual(2_000);
    mock = await startScenario({
      rules: [
        {
          match: { system: LEAD, lastIsToolResult: false },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "find the cause" } }] },
        },
        { match: { system: NOT_LEAD }, response: { text: long } },
        {
          match: { system: LEAD, lastIsToolResult: true },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: {} }] },
        },
        { match: { system: LEAD }, response: { text: "understood" } },
      ],
    });
    const result = await runNyz(["exec", "-q", "--full-auto", "why does it fail?"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const afterWait = mock.requests.filter((request) => request.system?.includes(LEAD)).at(-1)!;
    const [waitResult] = afterWait.messages.at(-1)!.toolResults!;
    expect(Object.values(JSON.parse(waitResult!.content).status)).toEqual([`completed: ${long}`]);
  });
});
