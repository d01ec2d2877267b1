import { isWithin } from "./resolve-real-path.js";
import { SandboxError } from "./sandbox-error.js";
import type { SandboxLevel } from "./sandbox-level.js";

export interface BwrapCommandOptions {
  /** `read-only` or `workspace-write`; `full-access` runs without bubblewrap. */
  level: SandboxLevel;
  /** Real paths of the workspace roots: bound writable under workspace-write, read-only otherwise. */
  roots: readonly string[];
  /** Without it the command gets its own network namespace with only a loopback device. */
  allowNetwork: boolean;
  /** Working directory inside the sandbox (same path as outside). */
  cwd: string;
  /** The program and its arguments to run inside, e.g. `["/bin/bash", "-c", script]`. */
  command: readonly string[];
  /**
   * Variables set inside with `--setenv` on top of the inherited environment. Keep secrets out:
   * argv is visible to other processes. `TMPDIR` is always `/tmp` (the private tmpfs).
   */
  env?: Readonly<Record<string, string>>;
  /** The bubblewrap executable. Default `bwrap` (looked up on PATH). */
  executable?: string;
}

/**
 * Builds the bubblewrap argv for one command. The whole filesystem is bound read-only, with a
 * fresh /dev, /proc and a private tmpfs on /tmp; under workspace-write each root is bound
 * writable on top. Later binds override earlier ones, so roots under /tmp stay visible.
 * The command gets its own PID namespace (so every process it starts dies with it), IPC and UTS
 * namespaces, a new session (no terminal injection through TIOCSTI) and dies with its parent.
 */
export function buildBwrapCommand(options: BwrapCommandOptions): string[] {
  if (options.level === "full-access") {
    throw new SandboxError("full-access commands run without bubblewrap; there is nothing to build.");
  }
  const argv = [options.executable ?? "bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  argv.push("--tmpfs", "/tmp");
  const bind = options.level === "workspace-write" ? "--bind" : "--ro-bind";
  for (const root of options.roots) argv.push(bind, root, root);
  if (!options.roots.some((root) => isWithin(options.cwd, root))) {
    argv.push("--ro-bind-try", options.cwd, options.cwd);
  }
  argv.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!options.allowNetwork) argv.push("--unshare-net");
  argv.push("--die-with-parent", "--new-session");
  const env = { ...options.env, TMPDIR: "/tmp" };
  for (const [name, value] of Object.entries(env)) argv.push("--setenv", name, value);
  argv.push("--chdir", options.cwd, "--", ...options.command);
  return argv;
}
