import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, tempHome, tempProject } from "./helpers/run-nyz.js";

const hasRipgrep = spawnSync("rg", ["--version"], { stdio: "ignore" }).status === 0;
const hasProc = spawnSync("test", ["-r", "/proc/self/status"]).status === 0;

/** Peak resident memory of a running process so far (VmHWM), in bytes; undefined once it is gone. */
async function peakRss(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => undefined);
  const kib = status ? /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] : undefined;
  return kib ? Number(kib) * 1024 : undefined;
}

/** Writes `lines` matching lines to `path` in 1 MiB chunks (never the whole file in memory). */
function writeMatchingLines(path: string, lines: number): void {
  const line = "needle in a haystack\n";
  const perChunk = Math.floor((1024 * 1024) / line.length);
  const chunk = Buffer.from(line.repeat(perChunk));
  const fd = openSync(path, "w");
  try {
    for (let written = 0; written < lines; written += perChunk) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

let mock: MockLlm | undefined;
let workspace: string | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  if (workspace) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

describe.skipIf(!hasRipgrep || !hasProc)("grep on a huge file", () => {
  it("stops reading ripgrep at the match cap: nyz stays under 100 MB for 2 million matching lines", async () => {
    workspace = await tempProject("nyzhi-grep-memory-");
    // ~42 MB, 2 million matching lines: ripgrep would print ~600 MB of JSON for them.
    writeMatchingLines(join(workspace, "huge.log"), 2_000_000);
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: true },
          // A pause after the search, so the sampling below sees the peak the search left behind.
          response: { text: "searched", delayMs: 300 },
        },
        { response: { toolCalls: [{ name: "grep", arguments: { pattern: "needle", path: "huge.log" } }] } },
      ],
    });
    const home = await tempHome();
    const child = spawn(process.execPath, [NYZ_BIN, "exec", "--json", "grep the log"], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: workspace,
        NYZHI_LOG: "silent",
        ...anthropicEnv(mock, home),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    let peak = 0;
    let running = true;
    void exited.then(() => {
      running = false;
    });
    while (running) {
      peak = Math.max(peak, (await peakRss(child.pid!)) ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await exited, stderr).toBe(0);
    const done = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string })
      .find((event) => event.type === "tool_done" && event.name === "grep");
    expect(done?.output?.split("\n").at(-1)).toBe(
      "(showing the first 500 matches; more exist — narrow the pattern, path or include)",
    );
    expect(done?.output?.split("\n")[0]).toBe("huge.log:1:needle in a haystack");
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);
});
