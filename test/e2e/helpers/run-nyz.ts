import { spawn } from "node:child_process";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built `nyz` bin; the root `pnpm test` builds before running e2e tests. */
export const NYZ_BIN = fileURLToPath(new URL("../../../packages/cli/dist/nyz.cjs", import.meta.url));

export interface NyzResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunNyzOptions {
  cwd: string;
  /** Merged over a clean environment whose NYZHI_HOME is a temp dir. */
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
}

/** A fresh NYZHI_HOME so a test never reads or writes the real home. */
export async function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), "nyzhi-home-"));
}

/**
 * A fresh temp project with its own `.git` marker, so it is its own project root whatever lies
 * above $TMPDIR (an ancestor's `.git`, `.nyzhi` or `.claude` would otherwise become the root, and
 * the run would read that directory's config and write its `.nyzhi/`).
 */
export async function tempProject(prefix: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(directory, ".git"));
  return directory;
}

/** Runs the built `nyz` as a child process and collects its output. */
export function runNyz(args: readonly string[], options: RunNyzOptions): Promise<NyzResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.cwd,
    NYZHI_LOG: "silent",
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NYZ_BIN, ...args], { cwd: options.cwd, env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? "");
  });
}
