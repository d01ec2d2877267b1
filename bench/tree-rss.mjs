// Resident memory of a process tree, for benchmarks that run the built `nyz` (bench/session,
// bench/fanout): nyz and every process it spawned (an MCP server, the code index's child).
import { readdir, readFile } from "node:fs/promises";

/** RSS of `pid` and its descendants, following /proc/<pid>/task/<tid>/children (cheap: no /proc scan). */
export async function treeRss(pid) {
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift();
    try {
      const status = await readFile(`/proc/${current}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      for (const task of await readdir(`/proc/${current}/task`)) {
        const children = await readFile(`/proc/${current}/task/${task}/children`, "utf8").catch(() => "");
        for (const child of children.trim().split(/\s+/).filter(Boolean)) queue.push(Number(child));
      }
    } catch {
      // The process ended between two reads.
    }
  }
  return total;
}

/** Samples the tree of `pid` every 10 ms until `stop()`, which resolves to the peak, bytes. */
export function samplePeakRss(pid) {
  let peak = 0;
  let sampling = true;
  const loop = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRss(pid));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await loop;
      return peak;
    },
  };
}
