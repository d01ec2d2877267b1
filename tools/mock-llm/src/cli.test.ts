import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const cliPath = join(packageDir, "dist", "cli.js");
const children: ChildProcess[] = [];

// The CLI is tested as built (`dist/cli.js`, what `pnpm mock-llm` runs), so build it first.
beforeAll(() => {
  execFileSync("pnpm", ["exec", "tsup", "--silent"], { cwd: packageDir, stdio: "ignore" });
}, 60_000);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function runCli(args: string[]): {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("parseCliArgs", () => {
  it("reads --scenario, --port and --host, also as --flag=value", () => {
    expect(parseCliArgs(["--scenario", "a.json", "--port=4000", "--host", "0.0.0.0"])).toEqual({
      help: false,
      scenarioFile: "a.json",
      port: 4000,
      host: "0.0.0.0",
      quiet: false,
    });
  });

  it("rejects a missing scenario, a bad port and unknown flags", () => {
    expect(() => parseCliArgs([])).toThrow("--scenario FILE is required");
    expect(() => parseCliArgs(["--scenario", "a", "--port", "x"])).toThrow("--port must be 0-65535, got x");
    expect(() => parseCliArgs(["--scenario", "a", "--verbose"])).toThrow("unknown argument --verbose");
  });
});

describe("mock-llm CLI", () => {
  it("serves a scenario, logs each request to stderr and exits 0 on SIGTERM", async () => {
    const scenario = join(packageDir, "scenarios", "hello.json");
    const cli = runCli(["--scenario", scenario, "--port", "0"]);
    await until(() => cli.stdout().includes("listening"));
    const url = /mock-llm listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.stdout())?.[1];
    expect(url).toBeDefined();
    const client = new OpenAI({ apiKey: "test", baseURL: `${url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0]?.message.content).toBe("Hello from the mock LLM!");
    await until(() => cli.stderr().includes("\n"));
    expect(cli.stderr()).toMatch(
      /^#1 POST \/v1\/chat\/completions openai-chat model=m no-stream rule=greet 200 \d+ms\n$/,
    );
    cli.child.kill("SIGTERM");
    expect(await cli.exit).toBe(0);
  });

  it("exits 2 naming the file and the bad field for a bad scenario", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mock-llm-cli-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ rules: [{ response: { fault: { type: "explode" } } }] }));
    const cli = runCli(["--scenario", file]);
    expect(await cli.exit).toBe(2);
    expect(cli.stderr()).toContain(`${file}: rules[0].response.fault.type must be one of`);
  });

  it("prints help", async () => {
    const cli = runCli(["--help"]);
    expect(await cli.exit).toBe(0);
    expect(cli.stdout()).toContain("Usage: mock-llm --scenario FILE");
  });
});
