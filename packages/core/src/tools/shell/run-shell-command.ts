import { spawn } from "node:child_process";
import { buildBwrapCommand } from "../../engines/sandbox/build-bwrap-command.js";
import { claimControlFileMounts } from "../../engines/sandbox/control-file-mounts.js";
import type { BwrapStatus } from "../../engines/sandbox/detect-bwrap.js";
import type { DeniedPath } from "../../engines/sandbox/find-denied-paths.js";
import type { SandboxLevel } from "../../engines/sandbox/sandbox-level.js";
import { findShell } from "./find-shell.js";
import { OutputBuffer } from "./output-buffer.js";

/** Time between SIGTERM and SIGKILL to the process group, in ms. */
export const KILL_GRACE_MS = 200;
/** How long stdout/stderr may stay open after the shell exited, in ms, before the group is killed. */
const CLOSE_GRACE_MS = 100;

/** Bubblewrap settings for one command: the roots are real paths. */
export interface CommandSandboxSettings {
  level: Exclude<SandboxLevel, "full-access">;
  roots: readonly string[];
  allowNetwork: boolean;
  bwrap: Extract<BwrapStatus, { available: true }>;
  /** Denied paths hidden inside the sandbox. */
  masks?: readonly DeniedPath[];
  /**
   * Hook and MCP server scripts, kept read-only under workspace-write with the other control
   * files (`.nyzhi/`, `.claude/`, `.mcp.json`; see claimControlFileMounts).
   */
  controlFiles?: readonly string[];
  /** `shell.sandbox.allow_write` (real paths): bound writable besides the roots under workspace-write. */
  allowWrite?: readonly string[];
  /** Allowed paths inside a masked directory, bound back (see hiddenPathMounts). */
  reveal?: ReadonlyArray<{ path: string; writable: boolean }>;
}

export interface ShellRunOptions {
  command: string;
  cwd: string;
  /** Hard limit in ms; then the whole process group is killed. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Called with each chunk of stdout and stderr, interleaved as it arrives. */
  onOutput?: (text: string) => void;
  maxOutputChars: number;
  /** When set (and available), the command runs under bubblewrap with these settings. */
  sandbox?: CommandSandboxSettings | undefined;
  /** Default process.env, unfiltered; the tools pass the scrubbed one from prepareCommandSandbox. */
  env?: NodeJS.ProcessEnv;
}

export interface ShellRunResult {
  output: string;
  /** Null when the command was killed by a signal. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  sandboxed: boolean;
  durationMs: number;
}

/**
 * Runs `command` with bash (or sh) in its own process group, optionally inside bubblewrap.
 * On timeout or abort the whole group gets SIGTERM, then SIGKILL after KILL_GRACE_MS; under
 * bubblewrap the PID namespace takes down anything that left the group. Background processes
 * never outlive the command: once the shell exits, what is left of its group is killed.
 */
export function runShellCommand(options: ShellRunOptions): Promise<ShellRunResult> {
  const startedAt = Date.now();
  const shell = findShell({ sandboxed: options.sandbox !== undefined });
  const env = { ...(options.env ?? process.env), PAGER: "cat", GIT_PAGER: "cat" };
  let argv = [shell, "-c", options.command];
  let releaseMounts = () => {};
  if (options.sandbox) {
    const { level, roots, allowNetwork, bwrap, masks, allowWrite, reveal } = options.sandbox;
    const controlFiles =
      level === "workspace-write"
        ? claimControlFileMounts(roots, options.sandbox.controlFiles ?? [])
        : undefined;
    releaseMounts = () => controlFiles?.release();
    argv = buildBwrapCommand({
      level,
      roots,
      allowNetwork,
      ...(masks ? { masks } : {}),
      ...(allowWrite ? { allowWrite } : {}),
      ...(reveal ? { reveal } : {}),
      ...(controlFiles ? { controlFiles } : {}),
      cwd: options.cwd,
      command: argv,
      executable: bwrap.executable,
    });
  }
  const buffer = new OutputBuffer(options.maxOutputChars);

  return new Promise((resolvePromise) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const terminate = () => {
      if (killTimer) return;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => {
        killGroup("SIGKILL");
        finish();
      }, KILL_GRACE_MS);
    };
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    options.signal.addEventListener("abort", onAbort, { once: true });
    if (options.signal.aborted) onAbort();

    const onData = (chunk: string) => {
      buffer.append(chunk);
      options.onOutput?.(chunk);
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);

    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      releaseMounts();
      clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      options.signal.removeEventListener("abort", onAbort);
      killGroup("SIGKILL");
      child.stdout.destroy();
      child.stderr.destroy();
      resolvePromise({
        output: buffer.toString(),
        exitCode: exit.code,
        exitSignal: exit.signal,
        timedOut,
        aborted,
        sandboxed: options.sandbox !== undefined,
        durationMs: Date.now() - startedAt,
      });
    };
    child.on("error", (error) => {
      buffer.append(`${error.message}\n`);
      exit ??= { code: null, signal: null };
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Give the pipes a moment to drain; a background child holding them open is killed then.
      setTimeout(finish, killTimer ? 0 : CLOSE_GRACE_MS).unref();
    });
    child.on("close", () => finish());
  });
}
