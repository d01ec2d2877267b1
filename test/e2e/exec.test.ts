import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { NYZ_BIN, runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const sample = fileURLToPath(new URL("../../examples/demo/sample", import.meta.url));
// One agent fixing the sample's failing test (the demo itself now shows subagents at work).
const demoScenario = JSON.parse(
  await readFile(
    fileURLToPath(new URL("./fixtures/exec-fix-the-test.scenario.json", import.meta.url)),
    "utf8",
  ),
);

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await tempProject("nyzhi-exec-");
  await cp(sample, workspace, { recursive: true });
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const parseLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("nyz exec --json", () => {
  it("emits a well-formed JSONL stream for a tool-using session and changes the files", async () => {
    mock = await startScenario(demoScenario);
    const result = await runNyz(["exec", "--json", "--full-auto", "fix the failing test"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = parseLines(result.stdout);
    for (const event of events) expect(Object.keys(event)).toEqual([...Object.keys(event)].sort());
    const kinds = events.map((event) => event.type);
    expect(kinds[0]).toBe("session");
    expect(kinds.at(-2)).toBe("turn_end");
    expect(kinds.at(-1)).toBe("turn_complete");
    const started = events.filter((event) => event.type === "tool_start").map((event) => event.name);
    expect(started).toEqual(["list_dir", "read", "read", "edit", "bash"]);
    // The first step's three read-only calls run in parallel and finish in any order.
    const done = events.filter((event) => event.type === "tool_done").map((event) => event.name);
    expect([...done.slice(0, 3)].sort()).toEqual(["list_dir", "read", "read"]);
    expect(done.slice(3)).toEqual(["edit", "bash"]);
    // Each tool_done follows its tool_start; text arrives before the step's tools.
    expect(kinds.indexOf("text_delta")).toBeLessThan(kinds.indexOf("tool_start"));
    expect(events.find((event) => event.name === "bash" && event.type === "tool_done")).toMatchObject({
      output: "ok: greet says hello",
    });
    expect(events.at(-1)).toMatchObject({
      steps: 4,
      reason: "completed",
      input_tokens: 6000,
      output_tokens: 165,
    });
    expect(await readFile(join(workspace, "greet.js"), "utf8")).toMatch(/Hello, \$\{name\}!/);
    expect(result.stderr).not.toMatch(/"level"/); // no log lines leak into the terminal either
  });

  it("runs a tool-using session without loading Node's fetch implementation (undici), perf_hooks or js-yaml", async () => {
    // The SDKs touch `Headers`/`FormData` on every request; in the bundle those are stand-ins, and
    // the HTTP goes through node:http, so undici (~20–30 ms to load) is never needed.
    const probe = join(home, "probe.cjs");
    const loaded = join(home, "loaded.json");
    // Records Node's module list and every module name looked up at run time.
    await writeFile(
      probe,
      `const Module = require("node:module");
       const lookedUp = [];
       const resolve = Module._resolveFilename;
       Module._resolveFilename = function (request, ...rest) { lookedUp.push(request); return resolve.call(this, request, ...rest); };
       process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(loaded)}, JSON.stringify({ modules: process.moduleLoadList, lookedUp })));`,
    );
    // The demo, with a grep among its first calls.
    const [first, ...rest] = demoScenario.rules;
    const withGrep = {
      ...demoScenario,
      rules: [
        {
          ...first,
          response: {
            ...first.response,
            toolCalls: [
              ...first.response.toolCalls,
              { name: "grep", arguments: { pattern: "Helo", path: "." } },
            ],
          },
        },
        ...rest,
      ],
    };
    mock = await startScenario(withGrep);
    const result = await runNyz(["exec", "--json", "--full-auto", "fix the failing test"], {
      cwd: workspace,
      env: { ...anthropicEnv(mock, home), NODE_OPTIONS: `--require ${probe}` },
    });
    expect(result.code).toBe(0);
    const { modules, lookedUp } = JSON.parse(await readFile(loaded, "utf8")) as {
      modules: string[];
      lookedUp: string[];
    };
    expect(modules).toContain("NativeModule internal/webstreams/readablestream");
    expect(modules.filter((name) => name.includes("undici"))).toEqual([]);
    // Nor perf_hooks (the `performance` global loads it; grep times itself with process.hrtime).
    expect(modules).not.toContain("NativeModule perf_hooks");
    // Nor gray-matter's js-yaml, with no front matter to read: js-yaml looks up its optional
    // esprima as it loads (~1.5 ms in all).
    expect(lookedUp).not.toContain("esprima");
  });

  it("sends every request of a many-step session on one kept-alive connection", async () => {
    // Quick tool calls follow a response within one I/O turn; the final parts wait for the body's
    // end, so the connection is back in the pool by then (else: a new connection, remotely a TLS
    // handshake).
    const steps = 12;
    mock = await startScenario({
      rules: [
        ...Array.from({ length: steps }, (_, index) => ({
          match: { requestIndex: index + 1 },
          response: {
            text: `Step ${index + 1}.`,
            toolCalls: [
              index % 2 === 0
                ? { name: "grep", arguments: { pattern: "Helo", path: "." } }
                : { name: "read", arguments: { file_path: "greet.js" } },
            ],
          },
        })),
        { response: { text: "Done." } },
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "look around"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    expect(mock.requests.map((request) => request.connection)).toEqual(Array(steps + 1).fill(1));
  });

  it("reads a prompt from a file on stdin, and takes /dev/null as no input", async () => {
    mock = await startScenario({ rules: [{ response: { text: "ok" } }] });
    const promptFile = join(home, "prompt.txt");
    await writeFile(promptFile, "prompt from a file\n");
    // Async: the mock answers from this process, so a blocking spawnSync would deadlock.
    const run = async (stdin: string, args: string[]) => {
      const input = openSync(stdin, "r");
      try {
        const child = spawn(process.execPath, [NYZ_BIN, "exec", "--json", ...args], {
          cwd: workspace,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: workspace,
            NYZHI_LOG: "silent",
            ...anthropicEnv(mock!, home),
          },
          stdio: [input, "ignore", "ignore"],
        });
        return await new Promise<number | null>((resolve) => child.on("close", resolve));
      } finally {
        closeSync(input);
      }
    };
    expect(await run(promptFile, [])).toBe(0);
    expect(await run("/dev/null", ["the argument"])).toBe(0);
    expect(mock.requests.map((request) => request.messages[0]!.text)).toEqual([
      "prompt from a file\n",
      "the argument",
    ]);
  });

  it("reads a piped prompt from stdin and puts -m into the request's model field", async () => {
    mock = await startScenario({ rules: [{ response: { text: "done" } }] });
    const result = await runNyz(["exec", "-q", "-m", "claude-haiku-4-5", "summarise it"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
      stdin: "line one of a log\n",
    });
    expect(result).toMatchObject({ code: 0, stdout: "done\n" });
    expect(mock.requests[0]!.model).toBe("claude-haiku-4-5");
    expect(mock.requests[0]!.messages[0]!.text).toBe("line one of a log\n\n\nsummarise it");
  });

  it("resumes with --continue: the next request holds the earlier turn", async () => {
    mock = await startScenario({
      rules: [
        { match: { requestIndex: 1 }, response: { text: "The answer is 42." } },
        { response: { text: "You asked about the answer." } },
      ],
    });
    const env = anthropicEnv(mock, home);
    expect((await runNyz(["exec", "-q", "what is the answer?"], { cwd: workspace, env })).code).toBe(0);
    const second = await runNyz(["exec", "-q", "--continue", "what did I ask?"], { cwd: workspace, env });
    expect(second).toMatchObject({ code: 0, stdout: "You asked about the answer.\n" });
    expect(mock.requests[1]!.messages.map((message) => [message.role, message.text])).toEqual([
      ["user", "what is the answer?"],
      ["assistant", "The answer is 42."],
      ["user", "what did I ask?"],
    ]);
    const sessions = await readdir(join(home, "data", "sessions"));
    expect(sessions).toHaveLength(1);
  });

  it("exits 1 with a JSON error line when no credentials are configured, naming the env var", async () => {
    const result = await runNyz(["exec", "--json", "hello"], {
      cwd: workspace,
      env: { NYZHI_HOME: home, NYZHI_PROVIDER: "anthropic", NYZHI_CREDENTIAL_STORE: "file" },
    });
    expect(result.code).toBe(1);
    const lines = parseLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "error" });
    expect(String(lines[0]!.message)).toContain("ANTHROPIC_API_KEY");
    expect(String(lines[0]!.message)).toContain("nyz login anthropic");
  });

  it("exits 1 on a provider error, with an error line and a last turn_complete that says so", async () => {
    mock = await startScenario({
      rules: [{ response: { fault: { type: "status", status: 400, message: "bad request" } } }],
    });
    const result = await runNyz(["exec", "--json", "hello"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(1);
    const events = parseLines(result.stdout);
    expect(events.map((event) => event.type)).toContain("error");
    expect(events.filter((event) => event.type === "turn_complete")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "turn_complete", reason: "error", text: "" });
  });

  it("exits 2 on usage errors: a bad --sandbox, no prompt", async () => {
    const badSandbox = await runNyz(["exec", "--sandbox", "wide-open", "hi"], {
      cwd: workspace,
      env: { NYZHI_HOME: home },
    });
    expect(badSandbox.code).toBe(2);
    expect(badSandbox.stderr).toContain("Unknown sandbox level: wide-open");
    const noPrompt = await runNyz(["exec"], { cwd: workspace, env: { NYZHI_HOME: home } });
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain("No prompt provided");
  });

  it("denies, without a way to approve, what the trust mode does not allow, and tells the model", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { requestIndex: 1 },
          response: { toolCalls: [{ name: "bash", arguments: { command: "touch pwned" } }] },
        },
        { response: { text: "I was not allowed to run it." } },
      ],
    });
    const result = await runNyz(["exec", "--json", "run it"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const events = parseLines(result.stdout);
    expect(events.find((event) => event.type === "approval_denied")).toMatchObject({ tool: "bash" });
    // A call that never ran still pairs: tool_start, then tool_done marked refused.
    const call = {
      agent_id: "lead",
      depth: 0,
      id: expect.any(String),
      name: "bash",
      input: { command: "touch pwned" },
    };
    expect(events.filter((event) => event.type === "tool_start" || event.type === "tool_done")).toEqual([
      { type: "tool_start", ...call },
      {
        type: "tool_done",
        ...call,
        output: expect.stringContaining("not approved"),
        is_error: true,
        duration_ms: expect.any(Number),
        refused: "denied",
      },
    ]);
    const [start, done] = events.filter((event) => event.type === "tool_start" || event.type === "tool_done");
    expect(done!.id).toBe(start!.id);
    expect(mock.requests[1]!.messages.at(-1)!.toolResults![0]!.content).toContain("not approved");
    await expect(readFile(join(workspace, "pwned"))).rejects.toThrow();
  });

  it("exits 130 on Ctrl-C, ending the turn cleanly and saving the session", async () => {
    mock = await startScenario({
      rules: [{ response: { text: "slow answer that never ends", chunkDelayMs: 2000 } }],
    });
    const child = spawn(process.execPath, [NYZ_BIN, "exec", "--json", "take your time"], {
      cwd: workspace,
      env: { PATH: process.env.PATH ?? "", NYZHI_LOG: "silent", ...anthropicEnv(mock, home) },
    });
    child.stdin.end();
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    // Interrupt once the model request is open.
    await mock.waitForRequests(1, 10_000);
    const interruptedAt = Date.now();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    expect(Date.now() - interruptedAt).toBeLessThan(3000);
    expect(parseLines(stdout).at(-1)).toMatchObject({ type: "turn_complete", reason: "aborted" });
    const sessions = await readdir(join(home, "data", "sessions"));
    expect(sessions).toHaveLength(1);
  });
});
