import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRemoteEmbedder } from "./remote-providers.js";

// A remote embedder without a `fetch` of its own honours HTTP_PROXY / NO_PROXY (fetchWithProxy
// from @nyzhi/config). The proxy here only tunnels CONNECT, which is how that fetch goes through.

let embeddings: Server;
let embeddingsUrl: string;
let proxy: Server;
let tunnels: string[];
const sockets = new Set<Duplex>();

beforeEach(async () => {
  embeddings = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ data: [{ index: 0, embedding: [1, 2, 3] }], usage: { total_tokens: 1 } }),
      );
    });
  });
  await new Promise<void>((resolve) => embeddings.listen(0, "127.0.0.1", resolve));
  embeddingsUrl = `http://127.0.0.1:${(embeddings.address() as AddressInfo).port}`;
  tunnels = [];
  proxy = createServer();
  proxy.on("connect", (request, client: Duplex) => {
    tunnels.push(request.url ?? "");
    const [host, port] = (request.url ?? "").split(":");
    const upstream = connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"]) {
    vi.stubEnv(name, "");
  }
  vi.stubEnv("HTTP_PROXY", `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  embeddings.closeAllConnections();
  await new Promise((resolve) => embeddings.close(resolve));
  await new Promise((resolve) => proxy.close(resolve));
});

const embedOnce = () =>
  createRemoteEmbedder({ provider: "openai", model: "m", apiKey: "sk-test", baseUrl: embeddingsUrl }).embed([
    "text",
  ]);

describe("remote embedders behind a proxy", () => {
  it("send their requests through HTTP_PROXY", async () => {
    expect(await embedOnce()).toEqual([[1, 2, 3]]);
    expect(tunnels).toEqual([new URL(embeddingsUrl).host]);
  });

  it("go straight to a host NO_PROXY names", async () => {
    vi.stubEnv("NO_PROXY", "127.0.0.1");
    expect(await embedOnce()).toEqual([[1, 2, 3]]);
    expect(tunnels).toEqual([]);
  });
});
