import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, runNyz, tempHome } from "./helpers/run-nyz.js";

/** util-linux `script`, to run nyz with a terminal on stdout and stderr. */
const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-output-"));
  home = await tempHome();
  await writeFile(join(workspace, "a.txt"), "alpha\n");
  await writeFile(join(workspace, "b.txt"), "beta\n");
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const ANSWER = "The files say alpha and beta.";

/** A step with text and two parallel reads, then the answer. */
const TWO_READS: Scenario = {
  rules: [
    {
      match: { lastIsToolResult: false },
      response: {
        text: "Let me read both.",
        toolCalls: [
          { name: "read", arguments: { file_path: "a.txt" } },
          { name: "read", arguments: { file_path: "b.txt" } },
        ],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
    },
    { response: { text: ANSWER, usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: 50 } } },
  ],
};

/** Runs a shell command line with nyz as `$NYZ`, in the workspace. */
function shell(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", script], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: workspace,
        NYZHI_LOG: "silent",
        NYZ: NYZ_BIN,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("nyz run / exec in text mode: the answer on stdout, progress on stderr", () => {
  it("`nyz run … > out.md` and `x=$(nyz exec …)` capture the final answer and only it", async () => {
    mock = await startScenario(TWO_READS);
    const env = anthropicEnv(mock, home);
    const redirected = await shell('node "$NYZ" run "what do the files say?" > out.md 2> progress.txt', env);
    expect(redirected.code).toBe(0);
    expect(await readFile(join(workspace, "out.md"), "utf8")).toBe(`${ANSWER}\n`);
    const progress = await readFile(join(workspace, "progress.txt"), "utf8");
    expect(progress).toContain("Let me read both.");
    expect(progress).toContain("[tool: read]");
    expect(progress).toMatch(/— 2 steps · 350 in \/ 30 out tokens/);

    mock.reset();
    const captured = await shell('x=$(node "$NYZ" exec "what do the files say?"); printf "[%s]" "$x"', env);
    expect(captured.code).toBe(0);
    expect(captured.stdout).toBe(`[${ANSWER}]`);
    expect(captured.stderr).toContain("[tool: read]");

    // -q is unchanged: the answer alone, nothing on stderr.
    mock.reset();
    const quiet = await runNyz(["exec", "-q", "what do the files say?"], { cwd: workspace, env });
    expect(quiet).toMatchObject({ code: 0, stdout: `${ANSWER}\n`, stderr: "" });
  });

  it.skipIf(!hasScript)("on a terminal, streams the answer once and prints nothing extra", async () => {
    mock = await startScenario(TWO_READS);
    const result = await shell(
      `script -qefc 'node "$NYZ" exec "what do the files say?"' /dev/null < /dev/null`,
      {
        ...anthropicEnv(mock, home),
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout.split(ANSWER)).toHaveLength(2);
    expect(result.stdout).toContain("[tool: read]");
  });

  it("-o - writes the answer to stdout, not to a file named -; with --json it is a usage error", async () => {
    mock = await startScenario({ rules: [{ response: { text: "the answer" } }] });
    const env = anthropicEnv(mock, home);
    for (const command of ["run", "exec"]) {
      const result = await runNyz([command, "-o", "-", "hi"], { cwd: workspace, env });
      expect(result).toMatchObject({ code: 0, stdout: "the answer\n" });
      expect(result.stderr).not.toContain("Response written");
    }
    expect(await readdir(workspace)).not.toContain("-");
    const json = await runNyz(["exec", "--json", "-o", "-", "hi"], { cwd: workspace, env });
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("-o - writes the answer to stdout, where --json writes its events");
  });

  it("tells how to allow a call that nobody could approve", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { lastIsToolResult: false },
          response: { toolCalls: [{ name: "bash", arguments: { command: "touch made" } }] },
        },
        { response: { text: "It was not allowed." } },
      ],
    });
    const result = await runNyz(["exec", "make it"], { cwd: workspace, env: anthropicEnv(mock, home) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /\[denied: bash\] approval is required but nobody can answer[^\n]*\n {2}To allow it in this run, pass --full-auto \(trust full, sandbox workspace-write\), or -y autoedit/,
    );
    // The advice works: the same call runs with --full-auto.
    mock.reset();
    expect(
      (await runNyz(["exec", "--full-auto", "make it"], { cwd: workspace, env: anthropicEnv(mock, home) }))
        .code,
    ).toBe(0);
    expect(await readdir(workspace)).toContain("made");
  });
});

describe("nyz exec --json: correlatable events", () => {
  it("matches each tool_done to its tool_start by id with the arguments; the last line completes the turn", async () => {
    mock = await startScenario(TWO_READS);
    const result = await runNyz(["exec", "--json", "what do the files say?"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const event of events) expect(event).toMatchObject({ agent_id: "lead", depth: 0 });
    const starts = events.filter((event) => event.type === "tool_start");
    const dones = events.filter((event) => event.type === "tool_done");
    expect(starts.map((event) => event.input)).toEqual([{ file_path: "a.txt" }, { file_path: "b.txt" }]);
    expect(new Set(starts.map((event) => event.id)).size).toBe(2);
    expect(dones).toHaveLength(2);
    for (const done of dones) {
      const start = starts.find((event) => event.id === done.id)!;
      expect(done).toMatchObject({ name: "read", input: start.input, is_error: false });
      expect(events.indexOf(done)).toBeGreaterThan(events.indexOf(start));
      const file = (start.input as { file_path: string }).file_path;
      expect(done.output).toContain(file === "a.txt" ? "alpha" : "beta");
    }
    expect(events.filter((event) => event.type === "step_start").map((event) => event.step)).toEqual([1, 2]);
    expect(events.at(-1)).toEqual({
      type: "turn_complete",
      agent_id: "lead",
      depth: 0,
      session_id: events[0]!.session_id,
      provider: "anthropic",
      model: events[0]!.model,
      reason: "completed",
      text: ANSWER,
      steps: 2,
      input_tokens: 350, // Anthropic counts cache reads as input too
      output_tokens: 30,
      cache_read_tokens: 50,
      cache_write_tokens: 0,
      embedding_tokens: 0,
      cost_usd: expect.any(Number),
      // A new session: its totals (core's) are this run's.
      session_total: {
        input_tokens: 350,
        output_tokens: 30,
        cache_read_tokens: 50,
        cache_write_tokens: 0,
        embedding_tokens: 0,
        cost_usd: events.at(-1)!.cost_usd,
      },
      duration_ms: expect.any(Number),
    });
  });
});

describe("what a user reads when things go wrong", () => {
  it("Ctrl-C says the session was saved and how to continue it (or that --ephemeral saved nothing)", async () => {
    mock = await startScenario({
      rules: [{ response: { text: "slow answer that never ends", chunkDelayMs: 2000 } }],
    });
    const interrupt = async (extra: string[]) => {
      const requested = mock!.requests.length + 1;
      const child = spawn(process.execPath, [NYZ_BIN, "exec", ...extra, "take your time"], {
        cwd: workspace,
        env: { PATH: process.env.PATH ?? "", NYZHI_LOG: "silent", ...anthropicEnv(mock!, home) },
      });
      child.stdin.end();
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      // Interrupt once the model request is open.
      await mock!.waitForRequests(requested, 20_000);
      child.kill("SIGINT");
      return { code: await closed, stderr };
    };
    const saved = await interrupt([]);
    expect(saved.code).toBe(130);
    const [file] = await readdir(join(home, "data", "sessions"));
    const id8 = file!.slice(0, 8);
    expect(saved.stderr).toContain(
      `Interrupted. Session ${id8} saved; continue with \`nyz exec --continue "…"\` (this project's latest session) or \`nyz exec -s ${id8} "…"\`.`,
    );
    const ephemeral = await interrupt(["--ephemeral"]);
    expect(ephemeral.code).toBe(130);
    expect(ephemeral.stderr).toContain("Interrupted. The session was not saved (--ephemeral).");
    expect(await readdir(join(home, "data", "sessions"))).toHaveLength(1);
  }, 60_000);

  it("an unreachable provider is named with its URL and the socket's reason", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mkdir(join(workspace, ".nyzhi"));
    await writeFile(join(workspace, ".nyzhi", "config.toml"), "[agent.retry]\nmax_retries = 0\n");
    const result = await runNyz(["exec", "hi"], {
      cwd: workspace,
      env: {
        NYZHI_HOME: home,
        NYZHI_PROVIDER: "anthropic",
        ANTHROPIC_API_KEY: "test-key",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}/v1`,
        NYZHI_CREDENTIAL_STORE: "file",
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Could not reach Anthropic at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}. Check the network, or the base URL (provider.anthropic.base_url or ANTHROPIC_BASE_URL).`,
    );
  });
});
