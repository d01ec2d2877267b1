// Two builds of `nyz exec` alternately in one sitting (A B, B A, …) so a loaded machine's drift hits
// both alike: `A=<nyz.cjs> B=<nyz.cjs> node bench/session/exec-ab.mjs`. RUNS pairs after one
// warm-up each (default 15); STEPS tool-using steps per session (default 0: start-up and one
// answer; 20 is bench/session's session); extra Node flags after the path, e.g.
// B="<nyz.cjs> --max-semi-space-size=8". Each build keeps its own code cache. Per run: spawn →
// first model request, last reply → exit, the session's overhead as bench/session reckons it
// (wall − the mock's own time − a bare `node -e 0` timed in the same pair) and the process's CPU
// time (user + system, all threads, from a preloaded cpu-at-exit.cjs). Prints each build's medians
// and spread, and the median of the per-pair differences B − A.
// COUNT_INSTRUCTIONS=1 runs each session under valgrind's callgrind instead and reports the
// instructions it executed (all threads): ~1 min a run, but within ~1.5 % from run to run
// whatever else the machine does (RUNS defaults to 3 then).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { scenario, sessionFolders } from "./scenario.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const COUNT = process.env.COUNT_INSTRUCTIONS === "1";
const RUNS = Number(process.env.RUNS ?? (COUNT ? 3 : 15));
const STEPS = Number(process.env.STEPS ?? 0);
const CPU_PRELOAD = fileURLToPath(new URL("./cpu-at-exit.cjs", import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.A || !process.env.B) {
  console.error("usage: A=<path of nyz.cjs> B=<path of nyz.cjs> [STEPS=20] node bench/session/exec-ab.mjs");
  process.exit(2);
}
const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
const builds = {};
for (const name of ["A", "B"]) {
  const [bin, ...nodeArgs] = process.env[name].split(" ");
  const cache = await mkdtemp(join(tmpdir(), `nyzhi-bench-exec-ab-cache-${name}-`));
  // Absolute: each run starts in its own workspace.
  builds[name] = { bin: resolve(bin), nodeArgs, cache, runs: [] };
}

/** Runs `command` to its exit; resolves with the time it exited (epoch ms, the mock's clock). */
function runToExit(command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on("exit", () => resolve(performance.timeOrigin + performance.now())),
  );
  return new Promise((resolve, reject) =>
    child.on("close", async (code) =>
      code === 0
        ? resolve({ exitedAt: await exited, stdout })
        : reject(new Error(`${command} exited ${code}: ${(stderr || stdout).slice(-400)}`)),
    ),
  );
}

async function once(build) {
  const mock = await startMockLlm({ scenario: scenario(STEPS) });
  const { workspace, home } = await sessionFolders("nyzhi-bench-exec-ab");
  const cpuFile = join(workspace, "cpu.json");
  const countFile = join(workspace, "callgrind.out");
  const nyz = [
    ...build.nodeArgs,
    "--require",
    CPU_PRELOAD,
    build.bin,
    "exec",
    "--json",
    "--full-auto",
    "work",
  ];
  const [command, ...args] = COUNT
    ? ["valgrind", "--tool=callgrind", `--callgrind-out-file=${countFile}`, process.execPath, ...nyz]
    : [process.execPath, ...nyz];
  const startedAt = performance.timeOrigin + performance.now();
  const { exitedAt, stdout } = await runToExit(command, args, {
    cwd: workspace,
    env: {
      ...process.env,
      NYZHI_HOME: home,
      NYZHI_CACHE_DIR: build.cache,
      NYZHI_LOG: "silent",
      NYZHI_PROVIDER: "anthropic",
      ANTHROPIC_API_KEY: "bench",
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      BENCH_CPU_FILE: cpuFile,
    },
  }).finally(() => mock.close());
  const toolDone = stdout.split("\n").filter((line) => line.includes('"tool_done"')).length;
  if (toolDone !== STEPS) throw new Error(`expected ${STEPS} tool calls, saw ${toolDone}`);
  const requests = mock.requests.filter((request) => request.api === "anthropic");
  const last = requests.at(-1);
  const mockMs = mock.requests.reduce(
    (sum, request) => sum + ((request.endedAt ?? request.startedAt) - request.startedAt),
    0,
  );
  const cpu = JSON.parse(await readFile(cpuFile, "utf8"));
  const run = {
    first: requests[0].startedAt - startedAt,
    exit: exitedAt - (last.endedAt ?? last.startedAt),
    own: exitedAt - startedAt - mockMs,
    cpu: (cpu.user + cpu.system) / 1000,
  };
  if (COUNT) run.instructions = Number(/^summary: (\d+)/m.exec(await readFile(countFile, "utf8"))[1]);
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
  return run;
}

async function bareNode() {
  const startedAt = performance.timeOrigin + performance.now();
  const { exitedAt } = await runToExit(process.execPath, ["-e", "0"], {});
  return exitedAt - startedAt;
}

const bare = [];
for (let index = 0; index <= RUNS; index++) {
  const pairBare = COUNT ? 0 : await bareNode();
  for (const name of index % 2 ? ["A", "B"] : ["B", "A"]) {
    const run = await once(builds[name]);
    if (index > 0) builds[name].runs.push({ ...run, overhead: run.own - pairBare });
  }
  if (index > 0) bare.push(pairBare);
}

const measures = COUNT
  ? [["instructions", "instructions (millions)", 1e-6]]
  : [
      ["overhead", "overhead (wall − mock − bare Node)", 1],
      ["cpu", "CPU time (user + system)", 1],
      ["first", "start → first request", 1],
      ["exit", "last reply → exit", 1],
    ];
const figure = (value, scale) => (value * scale).toFixed(scale === 1 ? 1 : 2);
console.log(
  `${STEPS}-step sessions, ${RUNS} pairs after one warm-up each${COUNT ? ", under callgrind" : `; bare node -e 0 median ${median(bare).toFixed(0)} ms`}`,
);
for (const [key, label, scale] of measures) {
  const lines = ["A", "B"].map((name) => {
    const values = builds[name].runs.map((run) => run[key]);
    return `${name} ${figure(median(values), scale)} (${figure(Math.min(...values), scale)}–${figure(Math.max(...values), scale)})`;
  });
  const differences = builds.A.runs
    .map((run, index) => builds.B.runs[index][key] - run[key])
    .sort((a, b) => a - b);
  const quarter = (at) => figure(differences[Math.floor((differences.length - 1) * at)], scale);
  const ratio = median(builds.B.runs.map((run) => run[key])) / median(builds.A.runs.map((run) => run[key]));
  console.log(
    `${label}: median ${lines.join(", ")}; B − A per pair, median ${figure(median(differences), scale)} (middle half ${quarter(0.25)} … ${quarter(0.75)}); B / A ${ratio.toFixed(3)}`,
  );
}
console.log(`A ${process.env.A}\nB ${process.env.B}`);
for (const build of Object.values(builds)) await rm(build.cache, { recursive: true, force: true });
