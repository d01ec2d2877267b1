import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, tempHome, tempProject } from "./helpers/run-nyz.js";

/** Runs per command: the race (head closing the pipe while nyz still writes) does not show every time. */
const RUNS = 20;

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-pipe-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

interface PipeResult {
  /** nyz's own exit status of each run (`${PIPESTATUS[0]}`), one per line. */
  stdout: string;
  /** Everything nyz (and head) wrote to stderr over all runs, each line cut to 200 characters. */
  stderr: string;
}

/** `nyz <args> | head -n 1`, RUNS times, through a real shell pipe. */
function pipeToHead(args: readonly string[], env: Record<string, string>): Promise<PipeResult> {
  const script = `for run in $(seq ${RUNS}); do node "$NYZ" "$@" </dev/null | head -n 1 >/dev/null; echo "\${PIPESTATUS[0]}"; done`;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script, "bash", ...args], {
      cwd: workspace,
      // The file logger stays on (NYZHI_LOG unset means info): its teardown at exit was the fault.
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace, NYZ: NYZ_BIN, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", () => {
      // A line of the minified bundle is ~80 KB: too long for a readable failure.
      const lines = stderr.split("\n").map((line) => line.slice(0, 200));
      resolve({ stdout, stderr: lines.join("\n") });
    });
  });
}

const allZero = `${"0\n".repeat(RUNS)}`;

describe("nyz piped into head", () => {
  it("`nyz agents | head -n 1` exits 0 with nothing on stderr", async () => {
    // The built-in roles only: the log file is still opening when head closes the pipe (more role
    // files to read would give it time to open).
    expect(await pipeToHead(["agents"], { NYZHI_HOME: home })).toEqual({ stdout: allZero, stderr: "" });
  }, 120_000);

  it("`nyz models | head -n 1` exits 0 with nothing on stderr", async () => {
    expect(await pipeToHead(["models"], { NYZHI_HOME: home })).toEqual({ stdout: allZero, stderr: "" });
  }, 120_000);

  it("`nyz sessions | head -n 1` exits 0 with nothing on stderr", async () => {
    const sessions = join(home, "data", "sessions");
    await mkdir(sessions, { recursive: true });
    for (let index = 0; index < 60; index++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
      const meta = {
        id: `session-${String(index).padStart(3, "0")}`,
        title: `session number ${index}`,
        createdAt: at,
        updatedAt: at,
        messageCount: 0,
        provider: "anthropic",
        model: "claude-test",
      };
      await writeFile(join(sessions, `${meta.id}.json`), JSON.stringify({ version: 1, meta, messages: [] }));
    }
    // Skipped with a warning in the log, so the logger is in play here too.
    await writeFile(join(sessions, "broken.json"), "not json");
    expect(await pipeToHead(["sessions"], { NYZHI_HOME: home })).toEqual({ stdout: allZero, stderr: "" });
  }, 120_000);

  it("`nyz exec --json … | head -n 1` exits 0 with nothing on stderr", async () => {
    const chunks = Array.from({ length: 300 }, (_, index) => `word ${index} `);
    mock = await startScenario({ rules: [{ response: { text: chunks } }] });
    const result = await pipeToHead(
      ["exec", "--json", "--ephemeral", "say many words"],
      anthropicEnv(mock, home),
    );
    expect(result).toEqual({ stdout: allZero, stderr: "" });
  }, 120_000);
});
