// Fan-out benchmark: the lead spawns 16 subagents in one turn (max_threads = 16) whose mock
// replies take 300 ms each, then waits for all. Target: wall time within the lead's own time
// (the same turn with instant children) plus 1.5 × one child's 300 ms. Also memory per live
// subagent, and heap growth over 200 spawn/close cycles (should be ~0: a closed agent keeps only
// its record and thread). Runs measure.mjs under --expose-gc for stable heap figures.
// Then the peers' scenario (peers.mjs): 8 `task` children of 2 × 1.2 s requests through the built
// `nyz exec` with the default configuration; target within 10 % of its 2.6 s floor.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export async function run() {
  const script = fileURLToPath(new URL("./measure.mjs", import.meta.url));
  const output = execFileSync(process.execPath, ["--expose-gc", script], {
    encoding: "utf8",
    env: { ...process.env, NYZHI_LOG: "silent" },
  });
  const figures = JSON.parse(output.trim().split("\n").at(-1));
  const peersOutput = execFileSync(
    process.execPath,
    [fileURLToPath(new URL("./peers.mjs", import.meta.url))],
    {
      encoding: "utf8",
    },
  );
  const peers = JSON.parse(peersOutput.trim().split("\n").at(-1));
  const peersBudget = peers.peersFloorMs * 1.1;
  const budget = figures.leadOwnMs + 1.5 * 300;
  const ok =
    figures.fannedMs <= budget &&
    figures.cycleGrowthKb < 512 &&
    peers.peersWallMs <= peersBudget &&
    peers.peersPeakRssMb <= 80;
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
    "",
    "The peers' scenario, through the built `nyz exec --json --full-auto` with the **default configuration**: the lead issues 8 `task` calls in one response; each child makes 2 model requests of 1.2 s (a `read`, then its answer); the lead's requests take 100 ms; median of 3 runs. Issue 16 measured Codex at 3.3 s on this scenario, and nyz at 8.0 s before this change (with `max_threads = 8`; the 3-stream cap then held the lead and every child together, and with the default `max_threads = 4` the fifth `task` failed).",
    "",
    "| measure | value | target |",
    "| --- | ---: | ---: |",
    `| wall time | ${peers.peersWallMs.toFixed(0)} ms | ≤ ${peersBudget.toFixed(0)} ms (floor ${peers.peersFloorMs} ms + 10 %) |`,
    `| children's requests open at once | ${peers.peersInFlight} | 8 |`,
    `| children's requests | ${peers.peersChildRequests} | 16 |`,
    `| peak RSS of the process tree (max over runs) | ${peers.peersPeakRssMb.toFixed(0)} MB | ≤ 80 MB |`,
  ].join("\n");
  return { title: "Subagent fan-out (`bench/fanout`)", markdown, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await run()).markdown);
