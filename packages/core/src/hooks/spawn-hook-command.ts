import { spawn } from "node:child_process";
import type { HookStatus } from "./hook-types.js";

/** Cap on each captured stream (stdout, stderr, combined), in characters; the tail is kept. */
export const MAX_HOOK_CAPTURE_CHARS = 64_000;

/** How long to wait for the pipes to close after the process ended, ms. */
const DRAIN_GRACE_MS = 200;

export interface SpawnHookOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; undefined closes stdin at once. */
  stdin: string | undefined;
  /** Kill the process group after this long, ms. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface SpawnHookOutcome {
  status: HookStatus;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Stdout and stderr interleaved as they arrived. */
  combined: string;
}

/**
 * Runs `sh -c <command>` in its own process group and resolves once it ended and its output
 * drained. On timeout or abort the whole group is SIGKILLed, so nothing the hook started survives
 * it. Background processes the hook started on purpose (and did not wait for) survive a normal exit;
 * the runner stops reading their output shortly after `sh` exits. Never rejects.
 */
export function spawnHookCommand(command: string, options: SpawnHookOptions): Promise<SpawnHookOutcome> {
  return new Promise((resolve) => {
    const stdout = new TailBuffer();
    const stderr = new TailBuffer();
    const combined = new TailBuffer();
    let ending: "timed_out" | "killed" | undefined;
    let settled = false;

    const child = spawn("sh", ["-c", command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });

    const killGroup = (reason: "timed_out" | "killed") => {
      ending ??= reason;
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const timer = setTimeout(() => killGroup("timed_out"), options.timeoutMs);
    const onAbort = () => killGroup("killed");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (outcome: Omit<SpawnHookOutcome, "stdout" | "stderr" | "combined">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...outcome, stdout: stdout.text(), stderr: stderr.text(), combined: combined.text() });
    };

    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      stdout.push(chunk);
      combined.push(chunk);
    });
    child.stderr?.on("data", (chunk: string) => {
      stderr.push(chunk);
      combined.push(chunk);
    });
    // A hook that never reads stdin closes the pipe early (EPIPE); that is not a failure.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.stdin ?? "");

    child.on("error", (error) => {
      stderr.push(`failed to run hook: ${error.message}`);
      combined.push(`failed to run hook: ${error.message}`);
      finish({ status: "failed", exitCode: 127 });
    });
    child.on("exit", (code, signal) => {
      const outcome = toOutcome(code, signal, ending);
      // Output still buffered in the pipes arrives before "close"; a leftover background process
      // holding them open must not keep the hook waiting, so stop after a short grace.
      child.on("close", () => finish(outcome));
      setTimeout(() => finish(outcome), DRAIN_GRACE_MS).unref();
    });
  });
}

function toOutcome(
  code: number | null,
  signal: NodeJS.Signals | null,
  ending: "timed_out" | "killed" | undefined,
): Omit<SpawnHookOutcome, "stdout" | "stderr" | "combined"> {
  if (ending) return { status: ending, exitCode: code };
  if (signal !== null) return { status: "killed", exitCode: null };
  return { status: code === 0 ? "ok" : "failed", exitCode: code };
}

/** Keeps the last MAX_HOOK_CAPTURE_CHARS characters written to it. */
class TailBuffer {
  private chunks: string[] = [];
  private length = 0;

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > MAX_HOOK_CAPTURE_CHARS * 2) this.compact();
  }

  text(): string {
    this.compact();
    return this.chunks.join("");
  }

  private compact(): void {
    const joined = this.chunks.join("");
    const kept = joined.length > MAX_HOOK_CAPTURE_CHARS ? joined.slice(-MAX_HOOK_CAPTURE_CHARS) : joined;
    this.chunks = [kept];
    this.length = kept.length;
  }
}
