import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHttpMcpServer } from "../../packages/core/src/mcp/__fixtures__/http-server.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";

const LAB_SERVER = fileURLToPath(
  new URL("../../packages/core/src/mcp/__fixtures__/stdio-server.mjs", import.meta.url),
);

let workspace: string;
let home: string;
let mock: MockLlm | undefined;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-mcp-e2e-"));
  await mkdir(join(workspace, ".nyzhi"));
  home = await tempHome();
  // The project's own servers (its config and .mcp.json) start only in a trusted project.
  await mkdir(join(home, "config"));
  await writeFile(
    join(home, "config", "config.toml"),
    `[projects.${JSON.stringify(workspace)}]\ntrusted = true\n`,
  );
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const nyz = (args: string[]) => runNyz(args, { cwd: workspace, env: { NYZHI_HOME: home } });
const globalFile = () => join(home, "config", "config.toml");
const projectFile = () => join(workspace, ".nyzhi", "config.toml");

describe("nyz mcp add / list / remove", () => {
  it("round-trips a stdio server in project scope and an HTTP server with headers in global scope", async () => {
    await writeFile(projectFile(), "# project settings\n[agent]\nmax_steps = 9\n");
    const added = await nyz([
      "mcp",
      "add",
      "lab",
      "--env",
      "LAB_TOKEN=t-1",
      "--",
      process.execPath,
      LAB_SERVER,
      "--name=lab",
    ]);
    expect(added).toMatchObject({ code: 0, stdout: `Added MCP server 'lab' to ${projectFile()}\n` });
    const global = await nyz([
      "mcp",
      "add",
      "docs",
      "--url",
      "https://docs.example/mcp",
      "--header",
      "Authorization=Bearer abc",
      "--header",
      "X-Team=core",
      "--scope",
      "global",
    ]);
    expect(global).toMatchObject({ code: 0, stdout: `Added MCP server 'docs' to ${globalFile()}\n` });
    expect(await readFile(projectFile(), "utf8")).toBe(
      `# project settings\n[agent]\nmax_steps = 9\n\n[mcp.servers.lab]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(LAB_SERVER)}, "--name=lab"]\nenv = { LAB_TOKEN = "t-1" }\n`,
    );

    const listed = await nyz(["mcp", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      `MCP servers (2):\n  docs  http   https://docs.example/mcp  (global)\n  lab   stdio  ${process.execPath} ${LAB_SERVER} --name=lab  (project)\n`,
    );
    const json = await nyz(["mcp", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        name: "docs",
        transport: "http",
        endpoint: "https://docs.example/mcp",
        enabled: true,
        scope: "global",
      },
      {
        name: "lab",
        transport: "stdio",
        endpoint: `${process.execPath} ${LAB_SERVER} --name=lab`,
        enabled: true,
        scope: "project",
      },
    ]);

    expect(await nyz(["mcp", "remove", "docs", "--scope", "global"])).toMatchObject({
      code: 0,
      stdout: `Removed MCP server 'docs' from ${globalFile()}\n`,
    });
    expect(await nyz(["mcp", "remove", "lab"])).toMatchObject({
      code: 0,
      stdout: `Removed MCP server 'lab' from ${projectFile()}\n`,
      stderr: "",
    });
    expect(await readFile(projectFile(), "utf8")).toBe("# project settings\n[agent]\nmax_steps = 9\n");
    expect(await nyz(["mcp", "list"])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^No MCP servers configured\./),
    });
  });

  it("list --check connects, shows tools and failures, and exits 1 when a server fails", async () => {
    await writeFile(
      join(workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          lab: { command: process.execPath, args: [LAB_SERVER, "--name=lab"] },
          broken: { command: process.execPath, args: [LAB_SERVER, "--crash-on-start"] },
        },
      }),
    );
    const checked = await nyz(["mcp", "list", "--check"]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain("  lab     stdio");
    expect(checked.stdout).toContain(
      "    connected: 6 tool(s): echo, write_note, snapshot, fail, crash, add_tool\n",
    );
    expect(checked.stdout).toMatch(/ {4}failed: .*stderr: fatal: cannot open the lab database\n/);
  });

  it("list --check reaches a Streamable HTTP server through the bundle, sending the configured headers", async () => {
    // The bundle gives the MCP SDK nyzhi's stand-ins for Node's fetch globals (Headers…): this runs
    // the real HTTP transport with them, against a server that wants a bearer token.
    const server = await startHttpMcpServer({ token: "tok-1" });
    try {
      await writeFile(
        join(workspace, ".mcp.json"),
        JSON.stringify({
          mcpServers: { docs: { url: server.url, headers: { Authorization: "Bearer tok-1" } } },
        }),
      );
      const checked = await nyz(["mcp", "list", "--check"]);
      expect(checked.stdout).toContain("    connected: 2 tool(s): lookup, deploy\n");
      expect(checked.code).toBe(0);
      expect(server.seenAuthorization.length).toBeGreaterThan(0);
      expect(server.seenAuthorization.every((value) => value === "Bearer tok-1")).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("misuse exits non-zero with a message, and an unparsable config file is reported, never replaced", async () => {
    const cases: [string[], number, string][] = [
      [["mcp", "add", "lab"], 2, "Provide either --url <url> or a command after --"],
      [
        ["mcp", "add", "lab", "--url", "http://x", "--", "node"],
        2,
        "Give either --url or a command after --, not both",
      ],
      [["mcp", "add", "lab", "--url", "not a url"], 2, "--url is not a valid URL"],
      [["mcp", "add", "lab", "--header", "nope", "--url", "http://x"], 2, "--header expects KEY=VALUE"],
      [["mcp", "add", "bad name", "--", "node"], 2, "MCP server names use letters"],
      [
        ["mcp", "add", "lab", "--scope", "team", "--", "node"],
        2,
        "--scope must be one of project, global, local",
      ],
      [["mcp", "add"], 2, "missing required argument 'name'"],
      [["mcp", "remove", "ghost"], 1, "MCP server 'ghost' not found in"],
    ];
    for (const [args, code, message] of cases) {
      const result = await nyz(args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr).toContain(message);
    }
    await nyz(["mcp", "add", "lab", "--", "node", "x.mjs"]);
    const duplicate = await nyz(["mcp", "add", "lab", "--", "node", "y.mjs"]);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("MCP server 'lab' already exists");

    const broken = "[agent\nmax_steps = = 1\n";
    await writeFile(projectFile(), broken);
    const add = await nyz(["mcp", "add", "other", "--", "node"]);
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(`${projectFile()}:1:`);
    expect(add.stderr).toContain("invalid TOML");
    expect((await nyz(["mcp", "remove", "lab", "--scope", "project"])).code).toBe(1);
    expect(await readFile(projectFile(), "utf8")).toBe(broken);
  });
});

describe("nyz exec with MCP servers", () => {
  it("calls an MCP tool, reports a failed and a hanging server as notices, and finishes", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { requestIndex: 1 },
          response: { toolCalls: [{ name: "mcp__lab__echo", arguments: { message: "hi" } }] },
        },
        { match: { lastIsToolResult: true }, response: { text: "The lab answered." } },
      ],
    });
    await writeFile(
      projectFile(),
      [
        "[mcp.servers.lab]",
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(LAB_SERVER)}, "--name=lab"]`,
        "[mcp.servers.silent]",
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(LAB_SERVER)}, "--hang"]`,
        "timeout_ms = 800",
        "[mcp.servers.broken]",
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(LAB_SERVER)}, "--crash-on-start"]`,
        "",
      ].join("\n"),
    );
    const startedAt = Date.now();
    const result = await runNyz(["exec", "--json", "--full-auto", "ask the lab"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const notices = lines.filter((line) => line.type === "notice");
    expect(
      notices
        .map(({ server, kind, source }) => ({ server, kind, source }))
        .sort((a, b) => String(a.server).localeCompare(String(b.server))),
    ).toEqual([
      { server: "broken", kind: "failed", source: "mcp" },
      { server: "silent", kind: "timed-out", source: "mcp" },
    ]);
    expect(lines.find((line) => line.type === "tool_done")).toMatchObject({
      name: "mcp__lab__echo",
      output: expect.stringMatching(/^echo: hi \(cwd /),
    });
    expect(mock.requests[1]!.messages.at(-1)!.toolResults![0]!.content).toMatch(/^echo: hi/);
    expect(lines.at(-1)).toMatchObject({ type: "turn_complete", reason: "completed" });
  });
});

describe("nyz exec with a server an earlier run listed", () => {
  it("sends the first request without waiting for the server, with its tools; a call to one waits for it", async () => {
    mock = await startScenario({
      rules: [
        {
          match: { requestIndex: 1 },
          response: { toolCalls: [{ name: "mcp__lab__echo", arguments: { message: "hi" } }] },
        },
        { match: { lastIsToolResult: true }, response: { text: "The lab answered." } },
      ],
    });
    // The server answers nothing until <workspace>/gate exists.
    await writeFile(
      projectFile(),
      [
        "[mcp.servers.lab]",
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(LAB_SERVER)}, "--name=lab", "--gate=gate"]`,
        "",
      ].join("\n"),
    );
    const exec = () =>
      runNyz(["exec", "--json", "--full-auto", "ask the lab"], {
        cwd: workspace,
        env: anthropicEnv(mock!, home),
      });
    await writeFile(join(workspace, "gate"), "");
    expect((await exec()).code).toBe(0);

    await rm(join(workspace, "gate"));
    mock.reset();
    const second = exec();
    // The first request arrives while the server still holds back its answers, offering its tools.
    const [first] = await mock.waitForRequests(1, 60_000);
    expect(first!.toolsOffered).toContain("mcp__lab__echo");
    await writeFile(join(workspace, "gate"), "");
    const result = await second;
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.type === "tool_done")).toMatchObject({
      name: "mcp__lab__echo",
      output: expect.stringMatching(/^echo: hi \(cwd /),
    });
    expect(lines.filter((line) => line.type === "notice")).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ type: "turn_complete", reason: "completed" });
  }, 90_000);
});

describe("MCP prompts as commands", () => {
  it("expands /mcp__<server>__<prompt> args through the server and sends the text as the prompt", async () => {
    mock = await startScenario({ rules: [{ response: { text: "sample looks fine" } }] });
    await writeFile(
      join(workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: { lab: { command: process.execPath, args: [LAB_SERVER, "--name=lab"] } },
      }),
    );
    const result = await runNyz(["exec", "-q", "--full-auto", "/mcp__lab__review S-42"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
    });
    expect(result).toMatchObject({ code: 0, stdout: "sample looks fine\n" });
    expect(mock.requests[0]!.messages[0]!.text).toBe("Please review sample S-42 carefully.");
  });
});
