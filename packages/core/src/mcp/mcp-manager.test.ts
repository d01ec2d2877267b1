import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHttpMcpServer, type TestHttpMcpServer } from "./__fixtures__/http-server.js";
import { labSpec } from "./__fixtures__/lab-spec.js";
import { McpManager, type McpNotice } from "./mcp-manager.js";
import type { McpServerSpec } from "./mcp-server-config.js";

let workspace: string;
let manager: McpManager | undefined;
let http: TestHttpMcpServer | undefined;
const notices: McpNotice[] = [];
const signal = new AbortController().signal;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "nyzhi-mcp-")));
  notices.length = 0;
});
afterEach(async () => {
  await manager?.stop();
  manager = undefined;
  await http?.close();
  http = undefined;
  await rm(workspace, { recursive: true, force: true });
});

function newManager(defaultTimeoutMs = 10_000): McpManager {
  manager = new McpManager({
    cwd: workspace,
    env: { PATH: process.env.PATH, LAB_TOKEN: "from-parent-env-ignored" },
    onNotice: (notice) => notices.push(notice),
    defaultTimeoutMs,
  });
  return manager;
}

describe("McpManager", () => {
  it("starts a stdio server with env and cwd, and an HTTP server with its header, in parallel", async () => {
    http = await startHttpMcpServer({ token: "s3cret" });
    const mcp = newManager();
    const statuses = await mcp.start([
      labSpec("lab", [], { env: { LAB_TOKEN: "t-123" }, cwd: "." } as Partial<McpServerSpec>),
      {
        name: "docs",
        transport: "http",
        url: http.url,
        headers: { Authorization: "Bearer s3cret" },
        enabled: true,
        source: ".mcp.json",
      },
      { ...labSpec("off"), enabled: false },
    ]);
    expect(statuses.map(({ name, state, tools, transport }) => ({ name, state, tools, transport }))).toEqual([
      { name: "docs", state: "connected", tools: ["lookup", "deploy"], transport: "http" },
      {
        name: "lab",
        state: "connected",
        tools: ["echo", "write_note", "snapshot", "fail", "crash", "add_tool"],
        transport: "stdio",
      },
    ]);
    expect(http.seenAuthorization.every((value) => value === "Bearer s3cret")).toBe(true);
    expect(mcp.tools().map((tool) => [tool.name, tool.kind, tool.mutates])).toEqual([
      ["mcp__docs__deploy", "network", true],
      ["mcp__docs__lookup", "network", false],
      ["mcp__lab__add_tool", "execute", true],
      ["mcp__lab__crash", "execute", true],
      ["mcp__lab__echo", "execute", false],
      ["mcp__lab__fail", "execute", false],
      ["mcp__lab__snapshot", "execute", false],
      ["mcp__lab__write_note", "execute", true],
    ]);
    const echo = await mcp.callTool("lab", "echo", { message: "hi" }, signal);
    expect(echo.content).toEqual([{ type: "text", text: `echo: hi (cwd ${workspace}, token t-123)` }]);
    const lookup = await mcp.callTool("docs", "lookup", { term: "LGTM" }, signal);
    expect(lookup.content).toEqual([{ type: "text", text: 'docs: LGTM means "ship it"' }]);
    expect(notices).toEqual([]);
  });

  it("reports an HTTP server whose header is missing, and goes on with the rest", async () => {
    http = await startHttpMcpServer({ token: "s3cret" });
    const mcp = newManager();
    const statuses = await mcp.start([
      { name: "docs", transport: "http", url: http.url, headers: {}, enabled: true, source: "config" },
      labSpec("lab"),
    ]);
    expect(statuses.map((status) => [status.name, status.state])).toEqual([
      ["docs", "failed"],
      ["lab", "connected"],
    ]);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ server: "docs", kind: "failed" });
    expect(notices[0]!.message).toMatch(/^MCP server "docs" failed to start: .*401/s);
  });

  it("reports a server that exits at start with why, and one that never answers times out without holding up the rest", async () => {
    const mcp = newManager();
    const startedAt = Date.now();
    const statuses = await mcp.start([
      labSpec("broken", ["--crash-on-start"]),
      labSpec("silent", ["--hang"], { timeoutMs: 700 }),
      labSpec("lab"),
    ]);
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeLessThan(5_000);
    expect(statuses.map((status) => [status.name, status.state])).toEqual([
      ["broken", "failed"],
      ["lab", "connected"],
      ["silent", "timed-out"],
    ]);
    expect(statuses.find((status) => status.name === "silent")!.durationMs).toBeLessThan(2_000);
    expect(notices.map((notice) => notice.kind).sort()).toEqual(["failed", "timed-out"]);
    expect(notices.find((notice) => notice.kind === "failed")!.message).toMatch(
      /^MCP server "broken" failed to start: .*stderr: fatal: cannot open the lab database$/,
    );
    expect(notices.find((notice) => notice.kind === "timed-out")!.message).toBe(
      'MCP server "silent" timed out: did not answer within 700 ms',
    );
    expect(mcp.tools().every((tool) => tool.name.startsWith("mcp__lab__"))).toBe(true);
  });

  it("marks a server that dies mid-session crashed, says so, and drops its tools", async () => {
    const mcp = newManager();
    await mcp.start([labSpec("lab")]);
    let changes = 0;
    mcp.onToolsChanged(() => changes++);
    await mcp.callTool("lab", "crash", {}, signal);
    await until(() => mcp.statuses()[0]!.state === "crashed");
    expect(notices).toEqual([
      {
        server: "lab",
        kind: "crashed",
        message: expect.stringMatching(/^MCP server "lab" stopped unexpectedly \(connection closed/),
      },
    ]);
    expect(changes).toBe(1);
    expect(mcp.tools()).toEqual([]);
    await expect(mcp.callTool("lab", "echo", { message: "x" }, signal)).rejects.toThrow(
      /MCP server "lab" is crashed/,
    );
  });

  it("refreshes the tool list on tools/list_changed", async () => {
    const mcp = newManager();
    await mcp.start([labSpec("lab")]);
    let changes = 0;
    mcp.onToolsChanged(() => changes++);
    await mcp.callTool("lab", "add_tool", {}, signal);
    await until(() => mcp.tools().some((tool) => tool.name === "mcp__lab__late_tool"));
    expect(changes).toBe(1);
    expect(notices.map((notice) => notice.kind)).toEqual(["tools-changed"]);
  });
});

async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
