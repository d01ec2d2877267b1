// Fan-out benchmark: the lead spawns 16 subagents in one turn (max_threads = 16) whose mock
// replies take 300 ms each, then waits for all. Target: wall time within the lead's own time
// (the same turn with instant children) plus 1.5 × one child's 300 ms. Also memory per live
// subagent, and heap growth over 200 spawn/close cycles (should be ~0: a closed agent keeps only
// its record and thread). Runs measure.mjs under --expose-gc for stable heap figures.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export async function run() {
  const script = fileURLToPath(new URL("./measure.mjs", import.meta.url));
  const output = execFileSync(process.execPath, ["--expose-gc", script], {
    encoding: "utf8",
    env: { ...process.env, NYZHI_LOG: "silent" },
  });
  const figures = JSON.parse(output.trim().split("\n").at(-1));
  const budget = figures.leadOwnMs + 1.5 * 300;
  const ok = figures.fannedMs <= budget && figures.cycleGrowthKb < 512;
  const markdown = [
    "16 subagents spawned in one lead turn, each answering after 300 ms (mock), `wait` mode all; median of 5 runs.",
    "",
    "| measure | value | target |",
    "| --- | ---: | ---: |",
    `| lead's own time (children answer instantly) | ${figures.leadOwnMs.toFixed(0)} ms | |`,
    `| wall time with 300 ms children | ${figures.fannedMs.toFixed(0)} ms | ≤ ${budget.toFixed(0)} ms (lead + 1.5 × 300 ms) |`,
    `| most model requests open at once | ${figures.maxConcurrent} | 16 children + lead |`,
    `| heap per live subagent | ${figures.perLiveKb.toFixed(0)} KB | |`,
    `| heap change over the first 200 spawn/close cycles | ${figures.firstCyclesKb >= 0 ? "+" : ""}${figures.firstCyclesKb.toFixed(0)} KB | the last 100 finished agents are kept for \`resume_agent\` |`,
    `| heap growth over the next 200 cycles | ${figures.cycleGrowthKb.toFixed(0)} KB | ~0 (no growth) |`,
    `| agent records kept | ${figures.agentsKept} | 100 (retention cap) |`,
  ].join("\n");
  return { title: "Subagent fan-out (`bench/fanout`)", markdown, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).markdown);
