import type { DeniedPath } from "./find-denied-paths.js";
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
  /**
   * Existing paths `deny_paths` covers (see findDeniedPaths), hidden inside: a directory behind an
   * empty read-only tmpfs, a file behind `/dev/null` (mounted nodev, so opening it is refused).
   */
  masks?: readonly DeniedPath[];
  /**
   * Control files kept read-only inside the writable roots (see claimControlFileMounts): existing
   * paths bound read-only, missing directories covered by an empty read-only tmpfs.
   */
  controlFiles?: { readOnly: readonly string[]; placeholders: readonly string[] };
  /**
   * More writable paths under workspace-write (`shell.sandbox.allow_write`, real paths), bound
   * after the roots and the working directory; a missing one is skipped.
   */
  allowWrite?: readonly string[];
  /**
   * Paths inside a masked directory to bind back (`allow_read` inside a `block_dotfiles` entry),
   * read-only unless `writable`; mounted between the mask's tmpfs and its remount read-only.
   */
  reveal?: ReadonlyArray<{ path: string; writable: boolean }>;
  /** The bubblewrap executable. Default `bwrap` (looked up on PATH). */
  executable?: string;
}

/**
 * Builds the bubblewrap argv for one command. The whole filesystem is bound read-only, with a
 * fresh /dev, /proc and a private tmpfs on /tmp; under workspace-write each root is bound
 * writable on top (and the `allowWrite` paths), then the control files inside them read-only,
 * and each denied or blocked path is masked last (with its `reveal` paths bound back). Later
 * mounts override earlier ones, so roots under /tmp stay visible and a mask inside a root wins
 * over the root's bind.
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
  if (options.level === "workspace-write") {
    for (const path of options.allowWrite ?? []) argv.push("--bind-try", path, path);
  }
  for (const path of options.controlFiles?.readOnly ?? []) argv.push("--ro-bind", path, path);
  for (const path of options.controlFiles?.placeholders ?? []) {
    argv.push("--tmpfs", path, "--remount-ro", path);
  }
  for (const mask of options.masks ?? []) {
    if (mask.kind !== "directory") {
      argv.push("--ro-bind", "/dev/null", mask.path);
      continue;
    }
    argv.push("--tmpfs", mask.path);
    for (const shown of options.reveal ?? []) {
      if (shown.path !== mask.path && isWithin(shown.path, mask.path)) {
        argv.push(shown.writable ? "--bind" : "--ro-bind", shown.path, shown.path);
      }
    }
    argv.push("--remount-ro", mask.path);
  }
  argv.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!options.allowNetwork) argv.push("--unshare-net");
  argv.push("--die-with-parent", "--new-session");
  const env = { ...options.env, TMPDIR: "/tmp" };
  for (const [name, value] of Object.entries(env)) argv.push("--setenv", name, value);
  argv.push("--chdir", options.cwd, "--", ...options.command);
  return argv;
}
