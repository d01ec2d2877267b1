// Start → first model request and last reply → exit of a 0-step `nyz exec`, two builds alternately
// in one sitting (A B, B A, …) so a loaded machine's drift hits both alike:
// `A=<nyz.cjs> B=<nyz.cjs> node bench/session/exec-ab.mjs` (RUNS pairs after one warm-up, default
// 15; extra Node flags after the path, e.g. B="<nyz.cjs> --max-semi-space-size=8"). Timed as
// bench/session times them; each build keeps its own code cache. Prints medians and the median of
// per-pair differences A − B.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = Number(process.env.RUNS ?? 15);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!process.env.A || !process.env.B) {
  console.error("usage: A=<path of nyz.cjs> B=<path of nyz.cjs> node bench/session/exec-ab.mjs");
  process.exit(2);
}
const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
const builds = {};
for (const name of ["A", "B"]) {
  const [bin, ...nodeArgs] = process.env[name].split(" ");
  builds[name] = {
    bin,
    nodeArgs,
    cache: await mkdtemp(join(tmpdir(), `nyzhi-bench-exec-ab-${name}-`)),
    runs: [],
  };
}

async function once(build) {
  const mock = await startMockLlm({
    scenario: { rules: [{ response: { text: "Done.", usage: { inputTokens: 10, outputTokens: 2 } } }] },
  });
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-bench-exec-ab-"));
  const home = await mkdtemp(join(tmpdir(), "nyzhi-bench-exec-ab-home-"));
  const startedAt = performance.timeOrigin + performance.now();
  const child = spawn(
    process.execPath,
    [...build.nodeArgs, build.bin, "exec", "--json", "--full-auto", "hi"],
    {
      cwd: workspace,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NYZHI_HOME: home,
        NYZHI_CACHE_DIR: build.cache,
        NYZHI_LOG: "silent",
        NYZHI_PROVIDER: "anthropic",
        ANTHROPIC_API_KEY: "bench",
        ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      },
    },
  );
  child.stdout.resume();
  child.stderr.resume();
  const exitedAt = await new Promise((resolve) =>
    child.on("exit", () => resolve(performance.timeOrigin + performance.now())),
  );
  await mock.close();
  const requests = mock.requests.filter((request) => request.api === "anthropic");
  const last = requests.at(-1);
  return { first: requests[0].startedAt - startedAt, exit: exitedAt - (last.endedAt ?? last.startedAt) };
}

for (let index = 0; index <= RUNS; index++) {
  for (const name of index % 2 ? ["A", "B"] : ["B", "A"]) {
    const run = await once(builds[name]);
    if (index > 0) builds[name].runs.push(run);
  }
}
for (const name of ["A", "B"]) {
  const { runs } = builds[name];
  console.log(
    `${name} ${process.env[name]}: start → first request ${median(runs.map((run) => run.first)).toFixed(0)} ms, last reply → exit ${median(runs.map((run) => run.exit)).toFixed(0)} ms`,
  );
}
const pairs = builds.A.runs.map((run, index) => ({
  first: run.first - builds.B.runs[index].first,
  exit: run.exit - builds.B.runs[index].exit,
}));
console.log(
  `A − B, median of ${RUNS} per-pair differences: first request ${median(pairs.map((pair) => pair.first)).toFixed(1)} ms, exit ${median(pairs.map((pair) => pair.exit)).toFixed(1)} ms`,
);
