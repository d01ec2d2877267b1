import { execFile } from "node:child_process";
import { buildBwrapCommand } from "./build-bwrap-command.js";

/** Whether commands can run under bubblewrap here, and if not, why (for the one-time notice). */
export type BwrapStatus =
  | { available: true; executable: string; version: string }
  | { available: false; reason: "missing" | "unusable"; detail: string };

/** Probe time limit in ms: a working bwrap starts in a few ms. */
const PROBE_TIMEOUT_MS = 5000;

const cache = new Map<string, Promise<BwrapStatus>>();

/**
 * Finds out, once per executable, whether bubblewrap is installed (`bwrap --version`) AND usable:
 * it runs a trivial command with the same namespaces real commands get, because user or network
 * namespaces may be disabled (containers, hardened kernels) even when the binary exists.
 */
export function detectBwrap(options: { executable?: string; refresh?: boolean } = {}): Promise<BwrapStatus> {
  const executable = options.executable ?? "bwrap";
  const cached = cache.get(executable);
  if (cached && !options.refresh) return cached;
  const status = probe(executable);
  cache.set(executable, status);
  return status;
}

async function probe(executable: string): Promise<BwrapStatus> {
  const version = await run(executable, ["--version"]);
  if (!version.ok) {
    const missing = version.code === "ENOENT";
    return { available: false, reason: missing ? "missing" : "unusable", detail: version.detail };
  }
  const argv = buildBwrapCommand({
    level: "read-only",
    roots: [],
    allowNetwork: false,
    cwd: "/",
    command: ["sh", "-c", "true"],
    executable,
  });
  const trial = await run(executable, argv.slice(1));
  if (!trial.ok) return { available: false, reason: "unusable", detail: trial.detail };
  return { available: true, executable, version: version.stdout.trim() };
}

type RunResult = { ok: true; stdout: string } | { ok: false; code: string | undefined; detail: string };

function run(file: string, args: string[]): Promise<RunResult> {
  return new Promise((resolvePromise) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (!error) return resolvePromise({ ok: true, stdout });
      const code = typeof error.code === "string" ? error.code : undefined;
      const detail = stderr.trim() || error.message;
      resolvePromise({ ok: false, code, detail });
    });
  });
}
