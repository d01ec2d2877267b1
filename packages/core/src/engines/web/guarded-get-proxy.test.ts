import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { text } from "node:stream/consumers";
import { startTestProxy, type TestProxy } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guardedGet } from "./guarded-get.js";
import type { WebAccessSettings } from "./web-access.js";

// web_fetch's GET behind HTTP_PROXY / HTTPS_PROXY: the target's address is still checked (before
// anything reaches the proxy), the proxy's own address is not.

let target: Server;
let port: number;
let proxy: TestProxy;
let hits: number;

beforeEach(async () => {
  hits = 0;
  target = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("page");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  port = (target.address() as AddressInfo).port;
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

const get = async (url: string, access: WebAccessSettings) => {
  const response = await guardedGet(new URL(url), {
    signal: AbortSignal.timeout(10_000),
    access,
    headers: {},
  });
  return { status: response.status, body: await text(response.body) };
};
const strict: WebAccessSettings = { allowPrivate: false, allowHosts: [] };

describe("guardedGet behind a proxy", () => {
  it("sends an allowed host's request through HTTP_PROXY", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    const url = `http://localhost:${port}/doc`;
    expect(await get(url, { allowPrivate: false, allowHosts: [`localhost:${port}`] })).toEqual({
      status: 200,
      body: "page",
    });
    expect(proxy.requests).toEqual([{ kind: "http", method: "GET", url }]);
  });

  it("checks the target's resolved addresses before anything reaches the proxy", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    await expect(get(`http://localhost:${port}/admin`, strict)).rejects.toThrow(
      `web_fetch refused http://localhost:${port}/admin: localhost resolves to 127.0.0.1, a loopback address.`,
    );
    await expect(get(`http://127.0.0.1:${port}/admin`, strict)).rejects.toThrow(
      `web_fetch refused http://127.0.0.1:${port}/admin: 127.0.0.1 is a loopback address.`,
    );
    expect(proxy.requests).toEqual([]);
    expect(hits).toBe(0);
  });

  it("goes straight to a host in NO_PROXY, still through the checked lookup", async () => {
    vi.stubEnv("HTTP_PROXY", proxy.url);
    vi.stubEnv("NO_PROXY", "localhost");
    await expect(get(`http://localhost:${port}/`, strict)).rejects.toThrow(/resolves to 127\.0\.0\.1/);
    expect(await get(`http://localhost:${port}/`, { allowPrivate: true, allowHosts: [] })).toEqual({
      status: 200,
      body: "page",
    });
    expect(proxy.requests).toEqual([]);
    expect(hits).toBe(1);
  });

  it("tunnels https with CONNECT to HTTPS_PROXY", async () => {
    vi.stubEnv("HTTPS_PROXY", proxy.url);
    // The target speaks plain HTTP, so TLS inside the tunnel fails; the CONNECT is what counts here.
    await expect(get(`https://localhost:${port}/`, { allowPrivate: true, allowHosts: [] })).rejects.toThrow(
      `web_fetch could not reach localhost:${port} through the proxy ${proxy.url} (from HTTPS_PROXY):`,
    );
    expect(proxy.requests).toEqual([{ kind: "connect", target: `localhost:${port}` }]);
  });
});
