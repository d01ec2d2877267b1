// Runs under `node --expose-gc`; prints one JSON line of figures. See run.mjs.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const core = await import(join(root, "packages/core/dist/index.js"));
const { defaultConfig } = await import(join(root, "packages/config/dist/index.js"));
const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));

const CHILDREN = 16;
const LEAD = "You are Nizzy";

function scenario(childDelayMs) {
  return {
    rules: [
      {
        match: { system: LEAD, lastIsToolResult: false },
        response: {
          toolCalls: Array.from({ length: CHILDREN }, (_, i) => ({
            name: "spawn_agent",
            arguments: { message: `part ${i}` },
          })),
        },
      },
      {
        match: { system: { regex: "^(?!You are Nizzy)" } },
        response: { text: "part done", delayMs: childDelayMs },
      },
      {
        match: { system: LEAD, lastIsToolResult: true, anyMessage: "agent_nickname" },
        times: 1,
        response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
      },
      { match: { system: LEAD }, response: { text: "all parts done" } },
    ],
  };
}

async function runtimeOn(mock, workspace) {
  const config = defaultConfig();
  config.provider.default = "anthropic";
  config.agent.trust.mode = "full";
  config.agent.agents.max_threads = CHILDREN;
  config.agent.max_concurrent_streams = CHILDREN + 1;
  const env = {
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_HOME: join(workspace, ".home"),
    NYZHI_LOG: "silent",
  };
  const resolveModel = core.createModelResolver({ config, env });
  return core.createAgentRuntime({
    config,
    model: await resolveModel(undefined),
    resolveModel,
    cwd: workspace,
    env,
  });
}

async function timedTurn(childDelayMs) {
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-fanout-"));
  const mock = await startMockLlm({ scenario: scenario(childDelayMs) });
  const runtime = await runtimeOn(mock, workspace);
  const started = performance.now();
  for await (const event of runtime.runTurn("split the work")) void event;
  const elapsed = performance.now() - started;
  const maxConcurrent = mock.maxConcurrent;
  await runtime.close();
  await mock.close();
  return { elapsed, maxConcurrent };
}

const heap = () => {
  global.gc();
  global.gc();
  return process.memoryUsage().heapUsed;
};

async function memoryFigures() {
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-fanout-mem-"));
  const mock = await startMockLlm({
    scenario: {
      rules: [
        { match: { lastUser: "hang" }, response: { fault: { type: "hang" } } },
        { response: { text: "ok" } },
      ],
    },
  });
  const runtime = await runtimeOn(mock, workspace);
  const manager = runtime.manager;
  const lead = { agentId: "lead", depth: 0 };
  // Warm up code paths so the first measurement does not count module-level allocations.
  for (let i = 0; i < 20; i++)
    manager.close((await manager.spawn({ parent: lead, message: "quick" })).agentId);
  const before = heap();
  const live = [];
  for (let i = 0; i < CHILDREN; i++) live.push(await manager.spawn({ parent: lead, message: "hang" }));
  await mock.waitForRequests(20 + CHILDREN, 10_000).catch(() => {});
  const withLive = heap();
  for (const child of live) manager.close(child.agentId);
  mock.reset();
  const afterWarm = heap();
  const cycles = async () => {
    for (let i = 0; i < 200; i++) {
      const spawned = await manager.spawn({ parent: lead, message: i % 2 ? "hang" : "quick" });
      if (i % 2 === 0) await manager.wait({ callerId: "lead", ids: [spawned.agentId], timeoutMs: 10_000 });
      manager.close(spawned.agentId);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await cycles(); // fills the retention window of finished agents
  mock.reset(); // the in-process mock records every request; that is not nyzhi's memory
  const afterFirst = heap();
  await cycles();
  mock.reset();
  const afterCycles = heap();
  const agentsKept = manager.list().length;
  await runtime.close();
  await mock.close();
  return {
    perLiveKb: (withLive - before) / CHILDREN / 1024,
    firstCyclesKb: (afterFirst - afterWarm) / 1024,
    cycleGrowthKb: (afterCycles - afterFirst) / 1024,
    agentsKept,
  };
}

await timedTurn(0);
const leadOwn = [];
const fanned = [];
let maxConcurrent = 0;
for (let i = 0; i < 5; i++) {
  leadOwn.push((await timedTurn(0)).elapsed);
  const run = await timedTurn(300);
  fanned.push(run.elapsed);
  maxConcurrent = Math.max(maxConcurrent, run.maxConcurrent);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  JSON.stringify({
    leadOwnMs: median(leadOwn),
    fannedMs: median(fanned),
    maxConcurrent,
    ...(await memoryFigures()),
  }),
);
