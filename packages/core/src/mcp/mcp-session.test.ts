import { mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { labSpec } from "./__fixtures__/lab-spec.js";
import type { McpServerSpec } from "./mcp-server-config.js";
import { type McpSession, startMcpSession } from "./mcp-session.js";

let workspace: string;
let cacheDir: string;
const sessions: McpSession[] = [];
const signal = new AbortController().signal;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-mcp-session-")));
  cacheDir = join(workspace, "cache");
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await rm(workspace, { recursive: true, force: true });
});

/** The lab server, holding back every answer until `<workspace>/gate` exists (`gate.crash`: it exits). */
const gatedLab = (): McpServerSpec =>
  labSpec("lab", ["--gate=gate"], { cwd: workspace } as Partial<McpServerSpec>);

async function start(servers: McpServerSpec[]): Promise<McpSession> {
  const session = await startMcpSession({
    config: { mcp: { servers: {} } } as never,
    projectRoot: workspace,
    env: { PATH: process.env.PATH },
    servers,
    toolCacheDir: cacheDir,
    // Far beyond any test's time: a server that is waited for holds the start until it answers.
    defaultTimeoutMs: 120_000,
  });
  sessions.push(session);
  return session;
}

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const cachedFiles = async () => (await readdir(join(cacheDir, "mcp-tools")).catch(() => [])).length;

describe("startMcpSession with a tool cache", () => {
  it("waits for a server nobody knows the tools of, and keeps its tool list", async () => {
    await writeFile(join(workspace, "gate"), "");
    const session = await start([gatedLab()]);
    expect(session.statuses.map((status) => status.state)).toEqual(["connected"]);
    await until(async () => (await cachedFiles()) === 1);
  });

  it("does not wait for a server whose tools an earlier session listed: they are offered at once, a call waits for the server", async () => {
    await writeFile(join(workspace, "gate"), "");
    const first = await start([gatedLab()]);
    const listed = first.manager.tools().map((tool) => tool.name);
    await until(async () => (await cachedFiles()) === 1);
    await first.close();
    await rm(join(workspace, "gate"));

    // The server answers nothing until the gate opens; the session starts anyway.
    const second = await start([gatedLab()]);
    expect(second.statuses.map(({ name, state }) => ({ name, state }))).toEqual([
      { name: "lab", state: "connecting" },
    ]);
    expect(second.manager.tools().map((tool) => tool.name)).toEqual(listed);
    let changes = 0;
    second.manager.onToolsChanged(() => changes++);
    const call = second.manager.callTool("lab", "echo", { message: "hello" }, signal);
    await writeFile(join(workspace, "gate"), "");
    const result = await call;
    expect(JSON.stringify(result.content)).toContain("echo: hello");
    expect(second.manager.statuses()[0]?.state).toBe("connected");
    // The live list is the kept one: nothing to tell the registry.
    expect(changes).toBe(0);
  });

  it("withdraws the kept tools of a server that fails to start, and waits for it the next time", async () => {
    await writeFile(join(workspace, "gate"), "");
    const first = await start([gatedLab()]);
    await until(async () => (await cachedFiles()) === 1);
    await first.close();
    await rm(join(workspace, "gate"));

    const second = await start([gatedLab()]);
    expect(second.manager.tools().length).toBeGreaterThan(0);
    let changes = 0;
    second.manager.onToolsChanged(() => changes++);
    await writeFile(join(workspace, "gate.crash"), "");
    await second.manager.settled();
    expect(second.manager.statuses()[0]?.state).toBe("failed");
    expect(second.manager.tools()).toEqual([]);
    expect(changes).toBe(1);
    await expect(second.manager.callTool("lab", "echo", { message: "x" }, signal)).rejects.toThrow(
      /MCP server "lab" is failed/,
    );
    await until(async () => (await cachedFiles()) === 0);
  });
});
