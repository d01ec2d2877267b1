import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MockLlm, type Scenario, startTestProxy, type TestProxy } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHttpMcpServer } from "../../packages/core/src/mcp/__fixtures__/http-server.js";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";
import { hasOpenssl, makeTestCertificates, startHttpsFront } from "./helpers/test-certificates.js";

// Every outgoing request of the built `nyz` honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY and
// NODE_EXTRA_CA_CERTS: model requests, web_fetch and MCP over HTTP, through a recording proxy.
// (The OAuth refresh runs in-process in core's runtime/model-resolver-proxy.test.ts: `nyz` takes
// no OAuth endpoints from outside.)

let mock: MockLlm | undefined;
let proxy: TestProxy;
let workspace: string;
let home: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  proxy = await startTestProxy();
  workspace = await tempProject("nyzhi-proxy-");
  home = await tempHome();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await mock?.close();
  mock = undefined;
  await proxy.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

const exec = (env: Record<string, string>, timeoutMs = 30_000) =>
  runNyz(["exec", "--json", "--full-auto", "go"], {
    cwd: workspace,
    env: { ...anthropicEnv(mock as MockLlm, home), ...env },
    timeoutMs,
  });

const toolOutput = (stdout: string, name: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; name?: string; output?: string })
    .find((event) => event.type === "tool_done" && event.name === name)?.output;

async function writeGlobalConfig(text: string): Promise<void> {
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(join(home, "config", "config.toml"), text);
}

describe("model requests behind a proxy", () => {
  const threeSteps: Scenario = {
    rules: [
      {
        match: { requestIndex: 1 },
        response: { toolCalls: [{ name: "read", arguments: { file_path: "a.txt" } }] },
      },
      {
        match: { requestIndex: 2 },
        response: { toolCalls: [{ name: "read", arguments: { file_path: "a.txt" } }] },
      },
      { response: { text: "done" } },
    ],
  };

  it("go to HTTP_PROXY for the http mock, over one kept-alive connection, and straight to it with NO_PROXY", async () => {
    await writeFile(join(workspace, "a.txt"), "alpha\n");
    mock = await startScenario(threeSteps);
    const proxied = await exec({ HTTP_PROXY: proxy.url });
    expect(proxied.code, proxied.stderr).toBe(0);
    const messages = { kind: "http", method: "POST", url: `${mock.url}/v1/messages` };
    expect(proxy.requests).toEqual([messages, messages, messages]);
    expect(proxy.connections()).toBe(1);

    proxy.requests.length = 0;
    await mock.close();
    mock = await startScenario(threeSteps);
    const direct = await exec({ HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" });
    expect(direct.code, direct.stderr).toBe(0);
    expect(proxy.requests).toEqual([]);
    expect(mock.requests).toHaveLength(3);
  }, 60_000);

  it.skipIf(!hasOpenssl())(
    "tunnel https through HTTPS_PROXY with TLS checked against NODE_EXTRA_CA_CERTS, and exit promptly",
    async () => {
      await writeFile(join(workspace, "a.txt"), "alpha\n");
      mock = await startScenario({
        rules: [
          { match: { lastIsToolResult: true }, response: { text: "over tls" } },
          { response: { toolCalls: [{ name: "read", arguments: { file_path: "a.txt" } }] } },
        ],
      });
      const certificates = await mkdtemp(join(tmpdir(), "nyzhi-certs-"));
      cleanups.push(() => rm(certificates, { recursive: true, force: true }));
      const tls = makeTestCertificates(certificates);
      const front = await startHttpsFront(mock.url, tls);
      cleanups.push(() => front.close());
      const overTls = { ANTHROPIC_BASE_URL: `${front.url}/v1`, NYZHI_CONFIG__AGENT__RETRY__MAX_RETRIES: "0" };

      // The front keeps idle connections for a minute: a pooled socket that kept nyz alive would
      // show as a run killed at the time limit.
      const proxied = await exec(
        { ...overTls, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.caFile },
        40_000,
      );
      expect(proxied.code, proxied.stderr).toBe(0);
      expect(proxied.stdout).toContain('"text":"over tls"');
      // Both model requests of the session share one tunnel (keep-alive through the proxy).
      expect(proxy.requests).toEqual([{ kind: "connect", target: new URL(front.url).host }]);
      expect(mock.requests).toHaveLength(2);

      const direct = await exec({ ...overTls, NODE_EXTRA_CA_CERTS: tls.caFile }, 40_000);
      expect(direct.code, direct.stderr).toBe(0);
      expect(proxy.requests).toHaveLength(1);

      // Without the CA the same request fails on the certificate, proxied or not.
      const untrusted = await exec({ ...overTls, HTTPS_PROXY: proxy.url }, 40_000);
      expect(untrusted.code).not.toBe(0);
      expect(untrusted.stderr + untrusted.stdout).toMatch(/certificate/i);
    },
    120_000,
  );
});

describe("web_fetch behind a proxy", () => {
  let page: Server;
  let pageUrl: string;
  let hits: number;

  beforeEach(async () => {
    hits = 0;
    page = createServer((_request, response) => {
      hits++;
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("intranet page");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
    cleanups.push(() => new Promise((resolve) => page.close(resolve)));
    mock = await startScenario({
      rules: [
        { match: { lastIsToolResult: true }, response: { text: "fetched" } },
        { response: { toolCalls: [{ name: "web_fetch", arguments: { url: pageUrl } }] } },
      ],
    });
  });

  it("goes through HTTP_PROXY once the host is allowed, straight to it with NO_PROXY, never when refused", async () => {
    // The model's requests (127.0.0.1) go direct; the page (localhost) is the proxied one.
    const env = { HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" };
    const refused = await exec(env);
    expect(toolOutput(refused.stdout, "web_fetch")).toMatch(
      /^web_fetch refused .*localhost resolves to 127\.0\.0\.1/,
    );
    expect(proxy.requests).toEqual([]);

    await writeGlobalConfig(`[web]\nallow_hosts = ["${new URL(pageUrl).host}"]\n`);
    const proxied = await exec(env);
    expect(toolOutput(proxied.stdout, "web_fetch")).toBe(`URL: ${pageUrl}\n\nintranet page`);
    expect(proxy.requests).toEqual([{ kind: "http", method: "GET", url: pageUrl }]);

    const direct = await exec({ ...env, NO_PROXY: "127.0.0.1,localhost" });
    expect(toolOutput(direct.stdout, "web_fetch")).toBe(`URL: ${pageUrl}\n\nintranet page`);
    expect(proxy.requests).toHaveLength(1);
    expect(hits).toBe(2);
  }, 90_000);
});

describe("MCP over HTTP behind a proxy", () => {
  it("connects through HTTP_PROXY, and straight to the server with NO_PROXY", async () => {
    const server = await startHttpMcpServer({ token: "tok-1" });
    cleanups.push(() => server.close());
    await mkdir(join(workspace, ".nyzhi"));
    await writeGlobalConfig(`[projects.${JSON.stringify(workspace)}]\ntrusted = true\n`);
    await writeFile(
      join(workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: { docs: { url: server.url, headers: { Authorization: "Bearer tok-1" } } },
      }),
    );
    const check = (env: Record<string, string>) =>
      runNyz(["mcp", "list", "--check"], { cwd: workspace, env: { NYZHI_HOME: home, ...env } });

    const proxied = await check({ HTTP_PROXY: proxy.url });
    expect(proxied.stdout).toContain("    connected: 2 tool(s): lookup, deploy\n");
    expect(proxied.code).toBe(0);
    expect(proxy.requests.length).toBeGreaterThan(0);
    expect(proxy.requests).toContainEqual({ kind: "connect", target: new URL(server.url).host });

    proxy.requests.length = 0;
    const direct = await check({ HTTP_PROXY: proxy.url, no_proxy: "127.0.0.1" });
    expect(direct.stdout).toContain("    connected: 2 tool(s): lookup, deploy\n");
    expect(proxy.requests).toEqual([]);
  }, 60_000);
});
