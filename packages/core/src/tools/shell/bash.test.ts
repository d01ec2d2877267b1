import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BwrapStatus } from "../../engines/sandbox/detect-bwrap.js";
import { createPathGuard } from "../../engines/sandbox/path-guard.js";
import type { SandboxSettings } from "../../engines/sandbox/sandbox-settings.js";
import { createTestContext, type TestContext } from "../testing/create-test-context.js";
import { createBashTool } from "./bash.js";
import { SHELL_ENVIRONMENT_SERVICE, type ShellEnvironmentSettings } from "./command-environment.js";
import { BWRAP_MISSING_NOTICE } from "./prepare-command-sandbox.js";

const missing = async (): Promise<BwrapStatus> => ({
  available: false,
  reason: "missing",
  detail: "spawn bwrap ENOENT",
});

let test: TestContext;

async function contextFor(level: SandboxSettings["level"]) {
  test = await createTestContext({ services: { sandbox: { level, roots: [], allowNetwork: false } } });
  test.context.paths = createPathGuard({ level, roots: [test.cwd], cwd: test.cwd });
  return test;
}

afterEach(async () => {
  await test?.cleanup();
});

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** True while `pid` is a live (non-zombie) process. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntil(predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return predicate();
}

describe("bash (unsandboxed: full-access)", () => {
  beforeEach(async () => {
    await contextFor("full-access");
  });

  it("reports output, exit code metadata and (no output)", async () => {
    const bash = createBashTool();
    const ok = await bash.run({ command: "echo hello; echo oops >&2" }, test.context);
    expect(ok.output).toBe("hello\noops");
    expect(ok.metadata).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, sandboxed: false });
    const failed = await bash.run({ command: "exit 3" }, test.context);
    expect(failed).toMatchObject({
      output: "(no output)\n(exit code 3)",
      isError: false,
      metadata: { exitCode: 3 },
    });
  });

  it("streams output through context.progress as it arrives", async () => {
    const bash = createBashTool();
    const result = await bash.run({ command: "echo one; sleep 0.2; echo two" }, test.context);
    expect(result.output).toBe("one\ntwo");
    expect(test.progress).toEqual(["one\n", "two\n"]);
  });

  it("times out, kills the group and says so", async () => {
    const bash = createBashTool();
    const startedAt = Date.now();
    const result = await bash.run({ command: "echo started; sleep 30", timeout: 0.3 }, test.context);
    expect(Date.now() - startedAt).toBeLessThan(1500);
    expect(result).toMatchObject({ output: "started\n(command timed out after 0.3s)", isError: true });
    expect(result.metadata).toMatchObject({ timedOut: true });
  });

  it("abort during sleep returns within 500 ms and leaves no process alive", async () => {
    const bash = createBashTool();
    const pidFile = join(test.cwd, "pids");
    const running = bash.run(
      {
        command: `sh -c 'sleep 30 & echo $! >> ${pidFile}; sleep 30 & echo $! >> ${pidFile}; echo $$ >> ${pidFile}; wait'`,
      },
      test.context,
    );
    expect(
      await waitUntil(
        async () => existsSync(pidFile) && (await readFile(pidFile, "utf8")).split("\n").length > 3,
        3000,
      ),
    ).toBe(true);
    const pids = (await readFile(pidFile, "utf8")).trim().split("\n").map(Number);
    expect(pids).toHaveLength(3);
    expect(pids.every(isAlive)).toBe(true);
    const abortedAt = Date.now();
    test.controller.abort();
    const result = await running;
    expect(Date.now() - abortedAt).toBeLessThan(500);
    expect(result).toMatchObject({
      output: "(no output)\n(command cancelled)",
      isError: true,
      metadata: { aborted: true },
    });
    expect(await waitUntil(() => pids.every((pid) => !isAlive(pid)), 500)).toBe(true);
    // Dead at once; the orphaned sleeps are reaped by init, which may take a moment longer.
    // (This machine's init reaps orphans up to ~2 s late.)
    expect(await waitUntil(() => pids.every(isGone), 5000)).toBe(true);
    for (const pid of pids)
      expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
  });

  it("caps output by code points, keeping head and tail", async () => {
    const bash = createBashTool({ maxOutputChars: 1000 });
    const result = await bash.run(
      { command: "echo START; for i in $(seq 1 3000); do printf 'é🙂'; done; echo; echo END" },
      test.context,
    );
    expect(result.output.startsWith("START\n")).toBe(true);
    expect(result.output.endsWith("END")).toBe(true);
    expect(result.output).toMatch(/\[output truncated: \d+ characters omitted\]/);
    expect(Array.from(result.output).length).toBeLessThan(1100);
    expect(result.output).not.toMatch(/\uFFFD/);
  });

  it("does not let background processes outlive the command", async () => {
    const bash = createBashTool();
    const pidFile = join(test.cwd, "bg");
    const result = await bash.run({ command: `sleep 30 & echo $! > ${pidFile}; echo done` }, test.context);
    expect(result.output).toBe("done");
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(await waitUntil(() => !isAlive(pid), 500)).toBe(true);
  });
});

describe("the environment of a command", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each(["full-access", "workspace-write"] as const)(
    "%s: leaves out credentials unless shell.env_passthrough names them; shell.env is set",
    async (level) => {
      vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-unit-secret");
      vi.stubEnv("MY_TOKEN", "my-token-value");
      vi.stubEnv("KEPT_SECRET", "kept-value");
      vi.stubEnv("ALIAS", "held-credential-value");
      vi.stubEnv("PLAIN", "plain-value");
      await contextFor(level);
      test.context.services[SHELL_ENVIRONMENT_SERVICE] = {
        passthrough: ["KEPT_*"],
        set: { FROM_CONFIG: "1" },
        secretValues: ["held-credential-value"],
      } satisfies ShellEnvironmentSettings;
      const result = await createBashTool({ detectSandbox: missing }).run({ command: "env" }, test.context);
      const names = result.output
        .split("\n")
        .map((line) => line.split("=")[0])
        .filter((name) =>
          ["ANTHROPIC_API_KEY", "MY_TOKEN", "KEPT_SECRET", "ALIAS", "PLAIN", "FROM_CONFIG"].includes(
            name ?? "",
          ),
        )
        .sort();
      expect(names).toEqual(["FROM_CONFIG", "KEPT_SECRET", "PLAIN"]);
      expect(result.output).not.toContain("sk-ant-unit-secret");
    },
  );
});

describe("bash without bubblewrap", () => {
  it("says once that commands run unsandboxed, and still checks visible writes against the workspace", async () => {
    await contextFor("workspace-write");
    const bash = createBashTool({ detectSandbox: missing });
    const first = await bash.run({ command: "echo hi" }, test.context);
    expect(first.output).toBe(`Note: ${BWRAP_MISSING_NOTICE}.\nhi`);
    const second = await bash.run({ command: "echo again" }, test.context);
    expect(second.output).toBe("again");
    const outside = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-outside-")));
    try {
      const refused = await bash.run({ command: `echo x > ${outside}/file` }, test.context);
      expect(refused.isError).toBe(true);
      expect(refused.output).toContain(`Blocked by the sandbox: Writing ${outside}/file is not allowed`);
      expect(existsSync(join(outside, "file"))).toBe(false);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("refuses to run at all in a read-only sandbox", async () => {
    await contextFor("read-only");
    const result = await createBashTool({ detectSandbox: missing }).run({ command: "echo hi" }, test.context);
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toContain(
      "Commands cannot run in the read-only sandbox: bubblewrap is not installed",
    );
  });
});
