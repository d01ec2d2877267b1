// Session benchmark: a scripted 20-step tool-using session through the real `nyz exec`, against a
// mock model that adds no delay. Records wall time and the mock's own time (the sum of each
// request's time inside the mock server, from its arrival to the end of its response, as the
// mock records it), so overhead = wall − bare `node -e 0` − the mock's time: start-up, module
// loading, 21 model round trips through the SDK, 20 tool calls (grep searches this small folder
// in-process; see grep-tool.ts), the session
// save. nyz's V8 code cache is shared by the runs (written by the warm-up run), as it is for a
// user after their first run. Peak RSS is of the whole process tree (nyz and any child it spawns), sampled from /proc
// every 10 ms.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { samplePeakRss } from "../tree-rss.mjs";
import { scenario, sessionFolders } from "./scenario.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
// NYZ_BIN measures another build (a checkout of main, for a before/after in the same conditions).
const nyzBin = process.env.NYZ_BIN ?? join(root, "packages/cli/dist/nyz.cjs");
const STEPS = 20;
const codeCacheDir = mkdtempSync(join(tmpdir(), "nyzhi-bench-cache-"));

async function runOnce(mock, steps = STEPS) {
  const mockUrl = mock.url;
  const { workspace, home } = await sessionFolders("nyzhi-bench-session");
  const started = process.hrtime.bigint();
  // On the mock's clock (epoch ms, sub-millisecond): its requests' times are on it.
  const startedAt = performance.timeOrigin + performance.now();
  const child = spawn(process.execPath, [nyzBin, "exec", "--json", "--full-auto", "work through the steps"], {
    cwd: workspace,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NYZHI_HOME: home,
      // One cache for all runs, as a user's: the warm-up run writes nyz's V8 code cache.
      NYZHI_CACHE_DIR: codeCacheDir,
      NYZHI_LOG: "silent",
      NYZHI_PROVIDER: "anthropic",
      ANTHROPIC_API_KEY: "bench",
      ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
    },
  });
  const sampler = samplePeakRss(child.pid);
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  // `exit`, not `close`: when the process ended, not when this process read the last of its pipes.
  const exited = new Promise((resolve) =>
    child.on("exit", () => resolve(performance.timeOrigin + performance.now())),
  );
  const code = await new Promise((resolve) => child.on("close", resolve));
  const exitedAt = await exited;
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const peak = await sampler.stop();
  if (code !== 0) throw new Error(`nyz exited ${code}: ${stdout.slice(-500)}`);
  const toolDone = stdout.split("\n").filter((line) => line.includes('"tool_done"')).length;
  if (toolDone !== steps) throw new Error(`expected ${steps} tool calls, saw ${toolDone}`);
  const mockMs = mock.requests.reduce(
    (sum, request) => sum + ((request.endedAt ?? request.startedAt) - request.startedAt),
    0,
  );
  const requests = mock.requests.filter((request) => request.api === "anthropic");
  const firstRequestMs = requests[0].startedAt - startedAt;
  const exitMs = exitedAt - (requests.at(-1).endedAt ?? requests.at(-1).startedAt);
  return { wallMs, peak, mockMs, firstRequestMs, exitMs };
}

/**
 * The floor of "start → first model request": a bare Node process that only sends one request to
 * the mock (node:http, no package), timed the same way (spawn to the mock receiving it). What nyz
 * takes beyond it is its own start-up: reading its bundle, the configuration, the session and the
 * first request's body.
 */
const FLOOR_SCRIPT = `const r=require("node:http").request(process.env.MOCK_URL+"/v1/messages",{method:"POST",headers:{"content-type":"application/json","x-api-key":"bench","anthropic-version":"2023-06-01"}},(res)=>res.resume());r.end(JSON.stringify({model:"m",max_tokens:5,stream:true,messages:[{role:"user",content:"hi"}]}));`;

async function floorOnce(mock) {
  const startedAt = performance.timeOrigin + performance.now();
  const child = spawn(process.execPath, ["-e", FLOOR_SCRIPT], {
    stdio: ["ignore", "ignore", "ignore"],
    env: { ...process.env, MOCK_URL: mock.url },
  });
  await new Promise((resolve) => child.on("close", resolve));
  const first = mock.requests.find((request) => request.api === "anthropic");
  return first ? first.startedAt - startedAt : Number.NaN;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({ runs = Number(process.env.BENCH_RUNS ?? 11) } = {}) {
  const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
  const samples = [];
  const bare = [];
  const empty = [];
  const floors = [];
  for (let i = 0; i < runs + 1; i++) {
    const mock = await startMockLlm({ scenario: scenario(STEPS) });
    const sample = await runOnce(mock);
    await mock.close();
    const emptyMock = await startMockLlm({ scenario: scenario(0) });
    const emptySample = await runOnce(emptyMock, 0);
    await emptyMock.close();
    if (i > 0) empty.push(emptySample.wallMs - emptySample.mockMs);
    const floorMock = await startMockLlm({ scenario: scenario(0) });
    const floorMs = await floorOnce(floorMock);
    await floorMock.close();
    if (i > 0) floors.push({ floorMs, firstRequestMs: sample.firstRequestMs });
    const startedBare = process.hrtime.bigint();
    await new Promise((resolve) => spawn(process.execPath, ["-e", "0"]).on("close", resolve));
    if (i > 0) {
      samples.push(sample);
      bare.push(Number(process.hrtime.bigint() - startedBare) / 1e6);
    }
  }
  const wall = median(samples.map((sample) => sample.wallMs));
  const mockMs = median(samples.map((sample) => sample.mockMs));
  const ownWall = median(samples.map((sample) => sample.wallMs - sample.mockMs));
  const node = median(bare);
  const peakMb = Math.max(...samples.map((sample) => sample.peak)) / 1024 / 1024;
  const overhead = ownWall - node;
  // Per run, each against the median bare Node: shows how much the machine's noise moves it.
  const perRun = samples.map((sample) => sample.wallMs - sample.mockMs - node).sort((a, b) => a - b);
  const quartiles = `${perRun[Math.floor(perRun.length / 4)].toFixed(0)}–${perRun[Math.floor((perRun.length * 3) / 4)].toFixed(0)}`;
  const fixed = median(empty) - node;
  const firstRequest = median(samples.map((sample) => sample.firstRequestMs));
  const floor = median(floors.map((entry) => entry.floorMs));
  // Per run, nyz's first request against the floor measured right after it (the same load).
  const beyondFloor = median(floors.map((entry) => entry.firstRequestMs - entry.floorMs));
  const exit = median(samples.map((sample) => sample.exitMs));
  const perStep = (ownWall - median(empty)) / STEPS;
  const markdown = [
    `${STEPS} model steps, each with one tool call (read or grep), through \`nyz exec --json --full-auto\` and the Anthropic SDK against a zero-latency mock; median of ${runs} runs (after one warm-up) on ${process.platform}/${process.arch}, Node ${process.version}.`,
    "",
    "| measure | value | target |",
    "| --- | ---: | ---: |",
    `| wall time, whole session | ${wall.toFixed(0)} ms | |`,
    `| the mock's own time (21 requests, as the mock records it) | ${mockMs.toFixed(0)} ms | |`,
    `| bare \`node -e 0\` | ${node.toFixed(0)} ms | |`,
    `| nyzhi overhead beyond the mock's latency (wall − mock − bare Node) | ${overhead.toFixed(0)} ms (runs' middle half: ${quartiles}) | < 150 ms |`,
    `| of which start-up and one answer with no tool (a 0-step session − mock − bare Node) | ${fixed.toFixed(0)} ms | |`,
    `| of which per tool-using step ((20-step − 0-step) / 20) | ${perStep.toFixed(1)} ms | |`,
    `| start → first model request (spawn to the mock receiving it) | ${firstRequest.toFixed(0)} ms | ≤ 100 ms (idle machine) |`,
    `| … its floor: bare Node sending one request to the mock (\`node -e\`, node:http), timed alike | ${floor.toFixed(0)} ms | |`,
    `| … nyz beyond that floor (median of per-run differences) | ${beyondFloor.toFixed(0)} ms | |`,
    `| last reply → exit (the mock's end of the last answer to the process's exit) | ${exit.toFixed(0)} ms | ≤ 20 ms (idle machine) |`,
    `| peak RSS of the process tree (max over runs) | ${peakMb.toFixed(0)} MB | < 120 MB |`,
  ].join("\n");
  return { title: "Headless session (`bench/session`)", markdown, ok: overhead < 150 && peakMb < 120 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await run();
  console.log(markdown);
}
