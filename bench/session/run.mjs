// Session benchmark: a scripted 20-step tool-using session through the real `nyz exec`, against a
// zero-latency mock model. Records wall time (the mock adds no latency, so all of it is nyzhi's
// own overhead: start-up, module loading, 20 model round trips through the SDK, 20 tool calls,
// the session save) and peak RSS of the whole process tree (nyz and any child it spawns),
// sampled from /proc every 5 ms.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const STEPS = 20;

function scenario() {
  const rules = [];
  for (let step = 1; step <= STEPS; step++) {
    const tool =
      step % 2 === 0
        ? { name: "read", arguments: { file_path: "notes.txt" } }
        : { name: "grep", arguments: { pattern: "line", path: "." } };
    rules.push({
      match: { requestIndex: step },
      response: { text: `Step ${step}.`, toolCalls: [tool], usage: { inputTokens: 1000, outputTokens: 20 } },
    });
  }
  rules.push({ response: { text: "All done.", usage: { inputTokens: 1000, outputTokens: 5 } } });
  return { rules };
}

async function treeRss(pid) {
  let total = 0;
  const pids = [pid];
  for (const entry of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (pids.includes(ppid) && !pids.includes(Number(entry))) pids.push(Number(entry));
    } catch {}
  }
  for (const p of pids) {
    try {
      const status = await readFile(`/proc/${p}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {}
  }
  return total;
}

async function runOnce(mockUrl) {
  const workspace = await mkdtemp(join(tmpdir(), "nyzhi-bench-session-"));
  await writeFile(
    join(workspace, "notes.txt"),
    Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n"),
  );
  const home = await mkdtemp(join(tmpdir(), "nyzhi-bench-home-"));
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [join(root, "packages/cli/dist/nyz.js"), "exec", "--json", "--full-auto", "work through the steps"],
    {
      cwd: workspace,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NYZHI_HOME: home,
        NYZHI_LOG: "silent",
        NYZHI_PROVIDER: "anthropic",
        ANTHROPIC_API_KEY: "bench",
        ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
      },
    },
  );
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(child.pid));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  const code = await new Promise((resolve) => child.on("close", resolve));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  sampling = false;
  await sampler;
  if (code !== 0) throw new Error(`nyz exited ${code}: ${stdout.slice(-500)}`);
  const toolDone = stdout.split("\n").filter((line) => line.includes('"tool_done"')).length;
  if (toolDone !== STEPS) throw new Error(`expected ${STEPS} tool calls, saw ${toolDone}`);
  return { wallMs, peak };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({ runs = 7 } = {}) {
  const { startMockLlm } = await import(join(root, "tools/mock-llm/dist/index.js"));
  const samples = [];
  const bare = [];
  for (let i = 0; i < runs + 1; i++) {
    const mock = await startMockLlm({ scenario: scenario() });
    const sample = await runOnce(mock.url);
    await mock.close();
    const startedBare = process.hrtime.bigint();
    await new Promise((resolve) => spawn(process.execPath, ["-e", "0"]).on("close", resolve));
    if (i > 0) {
      samples.push(sample);
      bare.push(Number(process.hrtime.bigint() - startedBare) / 1e6);
    }
  }
  const wall = median(samples.map((sample) => sample.wallMs));
  const node = median(bare);
  const peakMb = Math.max(...samples.map((sample) => sample.peak)) / 1024 / 1024;
  const overhead = wall - node;
  const markdown = [
    `${STEPS} model steps, each with one tool call (read or grep), through \`nyz exec --json --full-auto\` and the Anthropic SDK against a zero-latency mock; median of ${runs} runs (after one warm-up) on ${process.platform}/${process.arch}, Node ${process.version}.`,
    "",
    "| measure | value | target |",
    "| --- | ---: | ---: |",
    `| wall time, whole session | ${wall.toFixed(0)} ms | |`,
    `| bare \`node -e 0\` | ${node.toFixed(0)} ms | |`,
    `| nyzhi overhead beyond the mock's latency (wall − bare Node) | ${overhead.toFixed(0)} ms | < 150 ms |`,
    `| per step | ${(overhead / STEPS).toFixed(1)} ms | |`,
    `| peak RSS of the process tree (max over runs) | ${peakMb.toFixed(0)} MB | < 120 MB |`,
  ].join("\n");
  return { title: "Headless session (`bench/session`)", markdown, ok: overhead < 150 && peakMb < 120 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await run();
  console.log(markdown);
}
