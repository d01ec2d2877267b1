import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fetchWithProxy } from "@nyzhi/config";
import { startTestProxy, type TestProxy } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { nodeHttpFetch } from "./node-http-fetch.js";

// nodeHttpFetch (the model adapters' transport) and fetchWithProxy (OAuth, MCP, embedders) behind
// HTTP_PROXY / HTTPS_PROXY / NO_PROXY, through a recording proxy on 127.0.0.1.

let target: Server;
let base: string;
let proxy: TestProxy;
let hits: string[];

beforeEach(async () => {
  hits = [];
  target = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    request.on("end", () => response.end(`answer to ${request.url}`));
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  proxy = await startTestProxy();
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"]) {
    vi.stubEnv(name, "");
  }
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

describe("nodeHttpFetch behind a proxy", () => {
  it("sends http requests to HTTP_PROXY as absolute URIs, over one kept-alive proxy connection", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    expect(await (await nodeHttpFetch(`${base}/one`, { method: "POST", body: "x" })).text()).toBe(
      "answer to /one",
    );
    expect(await (await nodeHttpFetch(`${base}/two`)).text()).toBe("answer to /two");
    expect(proxy.requests).toEqual([
      { kind: "http", method: "POST", url: `${base}/one` },
      { kind: "http", method: "GET", url: `${base}/two` },
    ]);
    expect(proxy.connections()).toBe(1);
    expect(hits).toEqual(["POST /one", "GET /two"]);
  });

  it("goes straight to a host NO_PROXY names, and reads the variables at each request", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    vi.stubEnv("NO_PROXY", "example.com, 127.0.0.1");
    expect(await (await nodeHttpFetch(`${base}/direct`)).text()).toBe("answer to /direct");
    vi.stubEnv("NO_PROXY", "");
    vi.stubEnv("http_proxy", "");
    await (await nodeHttpFetch(`${base}/proxied`)).text();
    expect(proxy.requests).toEqual([{ kind: "http", method: "GET", url: `${base}/proxied` }]);
    expect(hits).toEqual(["GET /direct", "GET /proxied"]);
  });

  it("tunnels https requests with CONNECT to HTTPS_PROXY, with Proxy-Authorization from the URL", async () => {
    const { port } = new URL(proxy.url);
    vi.stubEnv("HTTPS_PROXY", `http://user:s%3Acret@127.0.0.1:${port}`);
    // The target speaks plain HTTP, so the TLS handshake inside the tunnel fails: the CONNECT is
    // what this checks (the end-to-end suite runs TLS through the tunnel).
    await expect(nodeHttpFetch(`https://127.0.0.1:${new URL(base).port}/secure`)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
    });
    expect(proxy.requests).toEqual([
      {
        kind: "connect",
        target: `127.0.0.1:${new URL(base).port}`,
        proxyAuthorization: `Basic ${Buffer.from("user:s:cret").toString("base64")}`,
      },
    ]);
  });

  it("names the proxy and its variable when the proxy cannot be reached", async () => {
    const closed = proxy.url;
    await proxy.close();
    vi.stubEnv("HTTP_PROXY", closed);
    const error = (await nodeHttpFetch(`${base}/x`).catch((caught: unknown) => caught)) as TypeError;
    expect(error).toMatchObject({ name: "TypeError", message: "fetch failed" });
    expect((error.cause as Error).message).toMatch(
      new RegExp(`ECONNREFUSED .*, through ${closed.replace(/\./g, "\\.")} \\(from HTTP_PROXY\\)$`),
    );
    expect(hits).toEqual([]);
  });

  it("refuses a proxy variable it cannot use, naming it", async () => {
    vi.stubEnv("http_proxy", "socks5://127.0.0.1:1080");
    await expect(nodeHttpFetch(`${base}/x`)).rejects.toMatchObject({
      code: "proxy_invalid",
      variable: "http_proxy",
    });
  });
});

describe("fetchWithProxy (the built-in fetch behind a proxy)", () => {
  it("tunnels through HTTP_PROXY with undici's ProxyAgent, and not for NO_PROXY hosts", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    expect(await (await fetchWithProxy(`${base}/tunnelled`)).text()).toBe("answer to /tunnelled");
    expect(proxy.requests).toEqual([{ kind: "connect", target: `127.0.0.1:${new URL(base).port}` }]);
    vi.stubEnv("NO_PROXY", "127.0.0.1");
    expect(await (await fetchWithProxy(new URL(`${base}/direct`))).text()).toBe("answer to /direct");
    expect(proxy.requests).toHaveLength(1);
    expect(hits).toEqual(["GET /tunnelled", "GET /direct"]);
  });
});
