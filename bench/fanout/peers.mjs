// The peers' fan-out scenario, through the built `nyz exec` with the default configuration: the
// lead issues 8 `task` calls in one response; each child makes 2 model requests of 1.2 s (a tool
// call, then its answer); the lead's own requests take 100 ms. Floor: lead request + 2 child
// requests + lead final = 2.6 s. Also the peak RSS of nyz's process tree. After one warm-up run
// that writes nyz's V8 code cache (shared by the runs, as a user's is after their first run).
// Prints one JSON line of figures.
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { samplePeakRss } from "../tree-rss.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
// NYZ_BIN measures another build (a checkout of main, for a before/after in the same conditions).
const nyz = process.env.NYZ_BIN ?? join(root, "packages/cli/dist/nyz.cjs");

const CHILDREN = 8;
const CHILD_MS = 1200;
const LEAD_MS = 100;
const LEAD = "You are Nizzy";
const NOT_LEAD = { regex: "^(?!You are Nizzy)" };
export const FLOOR_MS = LEAD_MS + 2 * CHILD_MS + LEAD_MS;
const codeCacheDir = await mkdtemp(join(tmpdir(), "nyzhi-fanout-cache-"));

const scenario = {
  rules: [
    {
      match: { system: LEAD, lastIsToolResult: false },
      response: {
        delayMs: LEAD_MS,
        toolCalls: Array.from({ length: CHILDREN }, (_, index) => ({
          name: "task",
          arguments: { subagent_type: "general-purpose", description: `look at part ${index}` },
        })),
      },
    },
    {
      match: { system: NOT_LEAD, lastIsToolResult: false },
      response: { delayMs: CHILD_MS, toolCalls: [{ name: "read", arguments: { path: "notes.md" } }] },
    },
    { match: { system: NOT_LEAD }, response: { delayMs: CHILD_MS, text: "part looked at: it is fine" } },
    { match: { system: LEAD }, response: { delayMs: LEAD_MS, text: "all eight parts are fine" } },
  ],
};

/** Runs nyz; resolves to the peak RSS of its process tree (bytes). */
function runNyz(args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nyz, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const sampler = samplePeakRss(child.pid);
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", async (code) => {
      const peak = await sampler.stop();
      code === 0 ? resolve(peak) : reject(new Error(`nyz exited ${code}: ${stderr}`));
    });
  });
}

/** The most requests of `requests` open at one moment. */
function maxInFlight(requests) {
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

async function once() {
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-fanout-peers-"));
  await writeFile(join(workspace, "notes.md"), "nothing to see\n");
  const mock = await startMockLlm({ scenario });
  const env = {
    PATH: process.env.PATH ?? "",
    NYZHI_HOME: join(workspace, ".home"),
    NYZHI_PROVIDER: "anthropic",
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    NYZHI_CREDENTIAL_STORE: "file",
    NYZHI_LOG: "silent",
    // One V8 code cache for every run, written by the warm-up run, as a user's after their first.
    NYZHI_CACHE_DIR: codeCacheDir,
  };
  const started = performance.now();
  const peakRss = await runNyz(["exec", "--json", "--full-auto", "check all eight parts"], {
    cwd: workspace,
    env,
  });
  const wallMs = performance.now() - started;
  const children = mock.requests.filter((request) => !request.system?.includes(LEAD));
  await mock.close();
  return { wallMs, peakRss, childRequests: children.length, childrenInFlight: maxInFlight(children) };
}

await once();
const runs = [];
for (let index = 0; index < 3; index++) runs.push(await once());
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  JSON.stringify({
    peersWallMs: median(runs.map((run) => run.wallMs)),
    peersFloorMs: FLOOR_MS,
    peersChildRequests: Math.min(...runs.map((run) => run.childRequests)),
    peersInFlight: Math.min(...runs.map((run) => run.childrenInFlight)),
    peersPeakRssMb: Math.max(...runs.map((run) => run.peakRss)) / 1024 / 1024,
  }),
);
