import { readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_HOOK_CAPTURE_CHARS, spawnHookCommand } from "./spawn-hook-command.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-spawn-hook-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (command: string, options: { timeoutMs?: number; stdin?: string; signal?: AbortSignal } = {}) =>
  spawnHookCommand(command, {
    cwd: dir,
    env: { PATH: process.env.PATH },
    stdin: options.stdin,
    timeoutMs: options.timeoutMs ?? 10_000,
    signal: options.signal,
  });

/** Alive and not a zombie (an orphan whose reaper is slow still counts as ended). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).charAt(0) !== "Z";
  } catch {
    return true;
  }
}

async function waitUntilDead(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isAlive(pid);
}

describe("spawnHookCommand", () => {
  it("runs in cwd with stdin and captures both streams", async () => {
    const outcome = await run("pwd; cat; echo oops >&2; exit 0", { stdin: "hello" });
    expect(outcome).toEqual({
      status: "ok",
      exitCode: 0,
      stdout: `${dir}\nhello`,
      stderr: "oops\n",
      combined: `${dir}\nhellooops\n`,
    });
  });

  it("reports a non-zero exit as failed with its code", async () => {
    const outcome = await run("echo bad >&2; exit 3");
    expect(outcome.status).toBe("failed");
    expect(outcome.exitCode).toBe(3);
    expect(outcome.stderr).toBe("bad\n");
  });

  it("does not fail when the hook ignores its stdin", async () => {
    const outcome = await run("exit 0", { stdin: "x".repeat(1_000_000) });
    expect(outcome.status).toBe("ok");
  });

  it("kills the whole process group at the timeout, quickly", async () => {
    const startedAt = Date.now();
    const outcome = await run(`sleep 30 & echo $! > "${dir}/child.pid"; echo started; wait`, {
      timeoutMs: 300,
    });
    const elapsed = Date.now() - startedAt;
    expect(outcome.status).toBe("timed_out");
    expect(outcome.stdout).toBe("started\n");
    expect(elapsed).toBeLessThan(2_000);
    const childPid = Number((await readFile(join(dir, "child.pid"), "utf8")).trim());
    expect(await waitUntilDead(childPid, 1_000)).toBe(true);
  });

  it("kills the group on abort and reports killed", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const outcome = await run("sleep 30", { signal: controller.signal });
    expect(outcome.status).toBe("killed");
  });

  it("reports a hook ended by a signal from elsewhere as killed", async () => {
    const outcome = await run("kill -TERM $$");
    expect(outcome).toMatchObject({ status: "killed", exitCode: null });
  });

  it("does not wait for a background process that keeps the output pipe open", async () => {
    const startedAt = Date.now();
    const outcome = await run(`sleep 5 & echo $! > "${dir}/bg.pid"; echo done`);
    expect(outcome).toMatchObject({ status: "ok", stdout: "done\n" });
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    process.kill(Number((await readFile(join(dir, "bg.pid"), "utf8")).trim()), "SIGKILL");
  });

  it("keeps only the tail of a large output", async () => {
    const outcome = await run(`yes line | head -n 40000; echo last`);
    expect(outcome.stdout.length).toBe(MAX_HOOK_CAPTURE_CHARS);
    expect(outcome.stdout.endsWith("line\nlast\n")).toBe(true);
  });
});
