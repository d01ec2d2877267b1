// What /proc says of a process: its resident memory and the CPU time it has used.
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime. */
export const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** Resident memory of `pid`, bytes. */
export async function rssBytes(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU time `pid` has used (all its threads, user + system), ms. */
export async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * Samples `pid` from now until `stop()`: CPU as % of one core over the whole window, the peak RSS
 * (sampled every `everyMs`), and the window's length.
 */
export async function sampleProcess(pid, { everyMs = 100 } = {}) {
  const startedAt = performance.now();
  const startCpu = await cpuMs(pid);
  let peakRss = await rssBytes(pid);
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      peakRss = Math.max(peakRss, await rssBytes(pid).catch(() => 0));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const endCpu = await cpuMs(pid);
      const wallMs = performance.now() - startedAt;
      return { cpuPercent: ((endCpu - startCpu) / wallMs) * 100, peakRss, wallMs };
    },
  };
}

/**
 * Resident memory of the code index's child process of the app at `pid` (`nyz __index-process`,
 * found among its children in /proc), bytes; undefined when none runs.
 */
export async function indexProcessRssBytes(pid) {
  let total;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== pid) continue;
      const command = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (!command.split("\0").includes("__index-process")) continue;
      total = (total ?? 0) + Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}
