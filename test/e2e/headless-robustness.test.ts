import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LAB_SERVER = fileURLToPath(
  new URL("../../packages/core/src/mcp/__fixtures__/stdio-server.mjs", import.meta.url),
);

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-robust-");
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe("nyz exec keeps the user's files and sessions safe", () => {
  it("writes -o FILE only for a completed turn, and leaves it untouched otherwise", async () => {
    const report = join(workspace, "report.txt");
    await writeFile(report, "keep me");
    mock = await startScenario({
      rules: [
        { match: { requestIndex: 1 }, response: { fault: { type: "status", status: 401, message: "nope" } } },
        { response: { text: "the answer" } },
      ],
    });
    const env = anthropicEnv(mock, home);
    const failed = await runNyz(["exec", "-o", report, "hi"], { cwd: workspace, env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`${report} not written: the turn did not complete`);
    expect(await readFile(report, "utf8")).toBe("keep me");
    const done = await runNyz(["exec", "-o", report, "hi"], { cwd: workspace, env });
    expect(done.code).toBe(0);
    expect(await readFile(report, "utf8")).toBe("the answer");
  });

  it("never reads piped stdin as a /command; the argument's /command is expanded", async () => {
    await mkdir(join(workspace, ".nyzhi", "commands"), { recursive: true });
    await writeFile(join(workspace, ".nyzhi", "commands", "review.md"), "Review this: $ARGUMENTS\n");
    mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
    const env = anthropicEnv(mock, home);
    const log = await runNyz(["exec", "explain this log"], {
      cwd: workspace,
      env,
      stdin: "/healthz returned 500\n",
    });
    expect(log.code).toBe(0);
    const review = await runNyz(["exec", "/review the diff"], {
      cwd: workspace,
      env,
      stdin: "diff --git a b\n",
    });
    expect(review.code).toBe(0);
    expect(mock.requests.map((request) => request.messages[0]!.text)).toEqual([
      "/healthz returned 500\n\n\nexplain this log",
      "diff --git a b\n\n\nReview this: the diff",
    ]);
  });

  it("--continue resumes the newest session of this project, not another project's", async () => {
    const other = await tempProject("nyzhi-robust-other-");
    mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
    const env = anthropicEnv(mock, home);
    expect((await runNyz(["exec", "plan for project A"], { cwd: workspace, env })).code).toBe(0);
    expect((await runNyz(["exec", "secret plan for project B"], { cwd: other, env })).code).toBe(0);
    expect((await runNyz(["exec", "--continue", "go on"], { cwd: workspace, env })).code).toBe(0);
    const texts = mock.requests[2]!.messages.map((message) => message.text);
    expect(texts).toContain("plan for project A");
    expect(texts).not.toContain("secret plan for project B");
    const fresh = await tempProject("nyzhi-robust-fresh-");
    const none = await runNyz(["exec", "--continue", "go on"], { cwd: fresh, env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("No sessions to continue in");
  });

  it("refuses at once to run on a session another live nyz holds", async () => {
    mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
    const env = anthropicEnv(mock, home);
    expect((await runNyz(["exec", "first"], { cwd: workspace, env })).code).toBe(0);
    const sessions = join(home, "data", "sessions");
    const [file] = (await readdir(sessions)).filter((name) => name.endsWith(".json"));
    const id = file!.slice(0, -".json".length);
    // As a running `nyz exec --session` would hold it: this (live) process owns the lock.
    await writeFile(
      join(sessions, `${id}.lock`),
      JSON.stringify({ pid: process.pid, host: hostname(), token: "t", at: Date.now() }),
    );
    const second = await runNyz(["exec", "--session", id, "second"], { cwd: workspace, env });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Session ${id} is in use by another nyz process`);
    expect(mock.requests).toHaveLength(1);
    const renamed = await runNyz(["session", "rename", id, "new title"], { cwd: workspace, env });
    expect(renamed.code).not.toBe(0);
  });

  it("exits promptly when the run fails after MCP servers started (they are stopped)", async () => {
    await writeFile(
      join(workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: { lab: { command: process.execPath, args: [LAB_SERVER, "--name=lab"] } },
      }),
    );
    mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
    const env = anthropicEnv(mock, home);
    const started = Date.now();
    // --trust-project: a project's .mcp.json servers start only in a trusted project.
    const result = await runNyz(["exec", "--json", "--trust-project", "/nosuchcommand"], {
      cwd: workspace,
      env,
      timeoutMs: 10_000,
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
