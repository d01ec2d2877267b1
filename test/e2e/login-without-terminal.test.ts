import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NYZ_BIN, type NyzResult, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

/**
 * `nyz login` where nobody can type or open a browser (issue 18, point 7): scripts, CI, `ssh host
 * nyz login`. It must end at once with how to pass a key, never wait minutes for a callback.
 */
let home: string;
let workspace: string;

beforeEach(async () => {
  home = await tempHome();
  workspace = await tempProject("nyzhi-login-");
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

const env = () => ({ NYZHI_HOME: home, NYZHI_CREDENTIAL_STORE: "file" });

/** Runs `nyz` with stdin from /dev/null (as `nyz login anthropic < /dev/null`), timing it. */
function runWithDevNull(args: readonly string[]): Promise<NyzResult & { elapsedMs: number }> {
  const devNull = openSync("/dev/null", "r");
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [NYZ_BIN, ...args], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace, NYZHI_LOG: "silent", ...env() },
      stdio: [devNull, "pipe", "pipe"],
    });
    closeSync(devNull);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    // Before the fix the browser flow waited 5 minutes; 20 s is far past any slow start.
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, elapsedMs: Date.now() - startedAt });
    });
  });
}

describe("nyz login without a terminal", () => {
  it("`nyz login anthropic < /dev/null` ends at once (exit 2) saying how to pass a key", async () => {
    const result = await runWithDevNull(["login", "anthropic"]);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    // The acceptance bound is 2 s; the process itself takes a few hundred ms (node start-up).
    expect(result.elapsedMs).toBeLessThan(2000);
    expect(result.stderr).toContain("needs a terminal");
    expect(result.stderr).toContain('printf %s "$ANTHROPIC_API_KEY" | nyz login anthropic --api-key -');
    expect(result.stderr).toContain("nyz login anthropic --api-key <key>");
    expect(result.stderr).toContain("Over SSH, run `nyz login anthropic` in the SSH session");
    expect(result.stderr).toContain("ssh -N -L <port>:127.0.0.1:<port> <host>");
    expect(result.stderr).not.toContain("Open this URL");
    expect(result.stdout).toBe("");
  });

  it("`nyz login < /dev/null` (no provider) asks for the provider to be named, exit 2", async () => {
    const result = await runWithDevNull(["login"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Name it: nyz login <provider> --api-key -");
    expect(result.stderr).not.toContain("Log in to which provider?");
  });

  it("saves a key read from stdin with `--api-key -`", async () => {
    const result = await runNyz(["login", "anthropic", "--api-key", "-"], {
      cwd: workspace,
      env: env(),
      stdin: "sk-ant-from-stdin\n",
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("Logged in to anthropic (account default, api-key, stored in the file)");
    expect(result.stderr).not.toContain("sk-ant-from-stdin");
    const stored = JSON.parse(await readFile(join(home, "data", "auth.json"), "utf8")) as unknown;
    expect(JSON.stringify(stored)).toContain("sk-ant-from-stdin");
  });

  it("saves a key given as `--api-key KEY`, even for `nyz login --api-key <provider>` spelled the other way", async () => {
    const given = await runNyz(["login", "openai", "--api-key", "sk-openai-given"], {
      cwd: workspace,
      env: env(),
    });
    expect(given.code).toBe(0);
    const status = await runNyz(["auth", "status", "--json"], { cwd: workspace, env: env() });
    const rows = JSON.parse(status.stdout) as { id: string; status: string }[];
    expect(rows.find((row) => row.id === "openai")?.status).toBe("connected");

    // The provider after a bare --api-key is the provider, not a key; the key then comes from stdin.
    const swapped = await runNyz(["login", "--api-key", "gemini"], {
      cwd: workspace,
      env: env(),
      stdin: "gemini-key-from-stdin\n",
    });
    expect(swapped.code).toBe(0);
    expect(swapped.stderr).toContain("Logged in to gemini");
  });

  it("a bare `--api-key` with nothing on stdin fails (exit 2) instead of saving an empty key", async () => {
    const result = await runNyz(["login", "anthropic", "--api-key"], {
      cwd: workspace,
      env: env(),
      stdin: "",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("No API key arrived on stdin; nothing was saved for anthropic.");
  });
});
