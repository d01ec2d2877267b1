import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

let mock: MockLlm | undefined;
let workspace: string;
let home: string;

beforeEach(async () => {
  workspace = await realpath(await tempProject("nyzhi-trust-"));
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const POWERFUL_CONFIG = `[agent.trust]
mode = "full"

[[agent.hooks]]
event = "session_start"
command = "touch hook-ran"
`;

/** A model that writes `file` once, then answers "done". */
const writeScenario = (file: string, content: string) => ({
  rules: [
    { match: { lastIsToolResult: true }, response: { text: "done" } },
    { response: { toolCalls: [{ name: "write", arguments: { file_path: file, content } }] } },
  ],
});

const toolResults = (mock: MockLlm) =>
  mock.requests.flatMap((request) => request.messages.flatMap((message) => message.toolResults ?? []));

describe("control files under autoedit", () => {
  it("asks before the model writes .nyzhi/config.toml: denied headless, the file untouched, the reason sent to the model", async () => {
    mock = await startScenario(writeScenario(".nyzhi/config.toml", '[agent.trust]\nmode = "full"\n'));
    const result = await runNyz(["exec", "--json", "-y", "autoedit", "configure yourself"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(workspace, ".nyzhi", "config.toml"))).toBe(false);
    const [denial] = toolResults(mock);
    expect(denial?.content).toContain("Tool `write` was not approved");
    expect(denial?.content).toContain(
      `${join(workspace, ".nyzhi", "config.toml")} is one of the agent's control files (.nyzhi/**): writing it always asks unless trust mode is full`,
    );
  });

  it("still writes ordinary workspace files without asking", async () => {
    mock = await startScenario(writeScenario("notes.txt", "hello\n"));
    const result = await runNyz(["exec", "--json", "-y", "autoedit", "take notes"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("hello\n");
  });
});

describe("project trust", () => {
  it("ignores a project's trust.mode and session_start hook with one warning until `nyz trust`", async () => {
    await mkdir(join(workspace, ".nyzhi"));
    await writeFile(join(workspace, ".nyzhi", "config.toml"), POWERFUL_CONFIG);
    mock = await startScenario(writeScenario("a.txt", "written\n"));
    const env = anthropicEnv(mock, home);

    const untrusted = await runNyz(["exec", "write a"], { cwd: workspace, env });
    expect(untrusted.code).toBe(0);
    const warnings = untrusted.stderr.split("\n").filter((line) => line.includes("not a trusted project"));
    expect(warnings).toEqual([
      `warning: ${workspace} is not a trusted project, so its settings that widen what nyzhi may do are ignored: agent.trust.mode, agent.hooks from ${join(workspace, ".nyzhi", "config.toml")}. Run \`nyz trust\` in the project to trust it, or pass --trust-project for one run.`,
    ]);
    expect(existsSync(join(workspace, "hook-ran"))).toBe(false);
    // Trust mode off: the write needed an approval nobody could give.
    expect(existsSync(join(workspace, "a.txt"))).toBe(false);

    const trust = await runNyz(["trust"], { cwd: workspace, env });
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain(`Trusted ${workspace}`);
    expect(await readFile(join(home, "config", "config.toml"), "utf8")).toContain(
      `[projects."${workspace}"]\ntrusted = true\n`,
    );
    const listed = await runNyz(["trust", "--list"], { cwd: workspace, env });
    expect(listed.stdout).toBe(`${workspace}\n`);

    const trusted = await runNyz(["exec", "write a"], { cwd: workspace, env });
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain("not a trusted project");
    expect(existsSync(join(workspace, "hook-ran"))).toBe(true);
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("written\n");
  });

  it("trusts for one run with --trust-project, and `nyz trust --remove` takes the trust back", async () => {
    await mkdir(join(workspace, ".nyzhi"));
    await writeFile(join(workspace, ".nyzhi", "config.toml"), POWERFUL_CONFIG);
    mock = await startScenario({ rules: [{ response: { text: "hi" } }] });
    const env = anthropicEnv(mock, home);
    expect((await runNyz(["trust"], { cwd: workspace, env })).code).toBe(0);
    const removed = await runNyz(["trust", "--remove"], { cwd: workspace, env });
    expect(removed.stdout).toBe(`No longer trusted: ${workspace}\n`);

    const plain = await runNyz(["exec", "hi"], { cwd: workspace, env });
    expect(plain.stderr).toContain("not a trusted project");
    expect(existsSync(join(workspace, "hook-ran"))).toBe(false);

    const once = await runNyz(["exec", "--trust-project", "hi"], { cwd: workspace, env });
    expect(once.code).toBe(0);
    expect(once.stderr).not.toContain("not a trusted project");
    expect(existsSync(join(workspace, "hook-ran"))).toBe(true);
  });

  it("does not start an untrusted project's .mcp.json servers", async () => {
    const marker = join(workspace, "server-started");
    await writeFile(
      join(workspace, ".mcp.json"),
      JSON.stringify({ mcpServers: { lab: { command: "sh", args: ["-c", `touch '${marker}'`] } } }),
    );
    mock = await startScenario({ rules: [{ response: { text: "hi" } }] });
    const result = await runNyz(["exec", "hi"], { cwd: workspace, env: anthropicEnv(mock, home) });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`ignored: mcpServers.lab from ${join(workspace, ".mcp.json")}`);
    expect(existsSync(marker)).toBe(false);
  });
});

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true"], { stdio: "ignore" })
    .status === 0;

describe.skipIf(!bwrapWorks)("bash under the workspace-write bubblewrap sandbox", () => {
  it("cannot write .nyzhi/config.toml even in trust mode full, while other workspace files are writable", async () => {
    await mkdir(join(workspace, ".nyzhi"));
    await writeFile(join(workspace, ".nyzhi", "config.toml"), "");
    const command = "echo x > .nyzhi/config.toml || echo refused; echo y > other.txt && echo other-ok";
    mock = await startScenario({
      rules: [
        { match: { lastIsToolResult: true }, response: { text: "done" } },
        { response: { toolCalls: [{ name: "bash", arguments: { command } }] } },
      ],
    });
    const result = await runNyz(["exec", "--full-auto", "try it"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result.code).toBe(0);
    const [output] = toolResults(mock);
    expect(output?.content).toContain("Read-only file system");
    expect(output?.content).toContain("refused");
    expect(output?.content).toContain("other-ok");
    expect(await readFile(join(workspace, ".nyzhi", "config.toml"), "utf8")).toBe("");
    expect(await readFile(join(workspace, "other.txt"), "utf8")).toBe("y\n");
  });
});
