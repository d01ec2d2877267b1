import { mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { MockLlm } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

// The built nyz loads turndown (and its DOM parser) only when web_fetch meets an HTML page: this
// checks that lazily loaded part of the bundle runs.
const PAGE = `<!doctype html><html><head><title>Guide</title><script>alert(1)</script></head>
<body><h2>Install</h2><p>See <a href="/docs/setup">setup</a>.</p>
<table><tr><th>flag</th><th>meaning</th></tr><tr><td>y</td><td>yes</td></tr></table></body></html>`;

let mock: MockLlm | undefined;
let server: Server;
let target: string;
let workspace: string;
let home: string;

beforeEach(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guide`;
  workspace = await tempProject("nyzhi-web-fetch-md-");
  home = await tempHome();
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(join(home, "config", "config.toml"), `[web]\nallow_hosts = ["${new URL(target).host}"]\n`);
  mock = await startScenario({
    rules: [
      { match: { lastIsToolResult: true }, response: { text: "fetched" } },
      { response: { toolCalls: [{ name: "web_fetch", arguments: { url: target } }] } },
    ],
  });
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await new Promise((resolve) => server.close(resolve));
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe("web_fetch of an HTML page through nyz exec", () => {
  it("gives the page as Markdown with absolute links and tables", async () => {
    const result = await runNyz(["exec", "--json", "--full-auto", "read the guide"], {
      cwd: workspace,
      env: anthropicEnv(mock!, home),
    });
    expect(result.code, result.stderr).toBe(0);
    const done = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string })
      .find((event) => event.type === "tool_done" && event.name === "web_fetch");
    const origin = new URL(target).origin;
    expect(done?.output).toBe(
      [
        `URL: ${target}`,
        "Title: Guide",
        "",
        "## Install",
        "",
        `See [setup](${origin}/docs/setup).`,
        "",
        "| flag | meaning |",
        "| --- | --- |",
        "| y   | yes |",
      ].join("\n"),
    );
  }, 30_000);
});
