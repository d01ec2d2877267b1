import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { constants, createGzip, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeHttpFetch } from "./node-http-fetch.js";

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

let server: Server;
let base: string;
let handler: Handler;

beforeEach(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => handler(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("nodeHttpFetch", () => {
  it("sends method, headers and body and returns a full Response", async () => {
    let seen: { method?: string | undefined; headers?: IncomingMessage["headers"]; body?: string } = {};
    handler = (request, response, body) => {
      seen = { method: request.method, headers: request.headers, body };
      response.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "r1" });
      response.end(JSON.stringify({ ok: true }));
    };
    const headers = new Headers({ "content-type": "application/json", "x-api-key": "k" });
    const response = await nodeHttpFetch(`${base}/v1/messages?beta=1`, {
      method: "POST",
      headers,
      body: JSON.stringify({ hello: "wörld" }),
    });
    expect(seen.method).toBe("POST");
    expect(seen.headers?.["x-api-key"]).toBe("k");
    expect(seen.headers?.["content-length"]).toBe(String(Buffer.byteLength('{"hello":"wörld"}')));
    expect(seen.body).toBe('{"hello":"wörld"}');
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made");
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${base}/v1/messages?beta=1`);
    expect(response.headers.get("x-request-id")).toBe("r1");
    const copy = response.clone();
    expect(await response.json()).toEqual({ ok: true });
    expect(await copy.text()).toBe('{"ok":true}');
  });

  it("takes plain-object and array headers", async () => {
    const seen: string[] = [];
    handler = (request, response) => {
      seen.push(String(request.headers["x-one"]));
      response.end("ok");
    };
    await (await nodeHttpFetch(base, { headers: { "X-One": "a" } })).text();
    await (await nodeHttpFetch(base, { headers: [["x-one", "b"]] })).text();
    expect(seen).toEqual(["a", "b"]);
  });

  it("streams the body as it arrives, before the server has finished", async () => {
    let finish: () => void = () => {};
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      finish = () => response.end("data: two\n\n");
    };
    const response = await nodeHttpFetch(base);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    finish();
    const rest: string[] = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest.push(new TextDecoder().decode(chunk.value));
    }
    expect(rest.join("")).toBe("data: two\n\n");
  });

  it("errors the body with TypeError 'terminated' when the connection is cut mid-response", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream", "content-length": "1000" });
      response.write("data: partial", () => response.socket?.destroy());
    };
    const response = await nodeHttpFetch(base);
    await expect(response.text()).rejects.toThrow(/terminated/);
  });

  it("rejects with the abort reason when aborted before the response and while streaming", async () => {
    handler = () => {}; // never answers
    const early = new AbortController();
    const pending = nodeHttpFetch(base, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    handler = (_request, response) => {
      response.writeHead(200);
      response.write("first");
    };
    const late = new AbortController();
    const response = await nodeHttpFetch(base, { signal: late.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });

    const already = new AbortController();
    already.abort();
    await expect(nodeHttpFetch(base, { signal: already.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("fails like fetch when nothing listens: TypeError 'fetch failed' with the cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await nodeHttpFetch(`http://127.0.0.1:${port}/`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe("fetch failed");
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("decodes a gzip body", async () => {
    handler = (request, response) => {
      expect(request.headers["accept-encoding"]).toContain("gzip");
      response.writeHead(200, { "content-encoding": "gzip" });
      response.end(gzipSync("squeezed"));
    };
    expect(await (await nodeHttpFetch(base)).text()).toBe("squeezed");
  });

  it("follows redirects, turning a 303 into a GET and dropping credentials across origins", async () => {
    const other = createServer((request, response) =>
      response.end(`other ${request.headers["x-api-key"] ?? "none"}`),
    );
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherBase = `http://localhost:${(other.address() as AddressInfo).port}`;
    try {
      handler = (request, response, body) => {
        if (request.url === "/start") {
          response.writeHead(303, { location: "/next" });
          response.end();
        } else if (request.url === "/next") {
          response.end(`${request.method} ${body || "no body"} ${request.headers["x-api-key"]}`);
        } else {
          response.writeHead(307, { location: `${otherBase}/away` });
          response.end();
        }
      };
      const init = { method: "POST", body: "payload", headers: { "x-api-key": "secret" } };
      const response = await nodeHttpFetch(`${base}/start`, init);
      expect(await response.text()).toBe("GET no body secret");
      expect(response.url).toBe(`${base}/next`);
      expect(response.redirected).toBe(true);
      expect(await (await nodeHttpFetch(`${base}/away`, init)).text()).toBe("other none");
      const manual = await nodeHttpFetch(`${base}/start`, { ...init, redirect: "manual" });
      expect(manual.status).toBe(303);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("releases the connection when a compressed stream is aborted or cancelled", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "text/event-stream" });
      const gzip = createGzip({ flush: constants.Z_SYNC_FLUSH });
      gzip.pipe(response);
      gzip.write("data: one\n\n");
      // and then nothing more: the server would hold the stream open forever
    };
    const openConnections = () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    for (const stop of ["abort", "cancel"] as const) {
      const controller = new AbortController();
      const response = await nodeHttpFetch(base, { signal: controller.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
      if (stop === "abort") controller.abort();
      else await reader.cancel();
      for (let waited = 0; (await openConnections()) > 0 && waited < 2000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect({ stop, open: await openConnections() }).toEqual({ stop, open: 0 });
    }
  });

  it("rejects a status fetch cannot represent as a network failure", async () => {
    handler = (_request, response) => {
      response.writeHead(999);
      response.end("odd");
    };
    await expect(nodeHttpFetch(base)).rejects.toMatchObject({ name: "TypeError", message: "fetch failed" });
  });

  it("gives a 204 a null body", async () => {
    handler = (_request, response) => {
      response.writeHead(204);
      response.end();
    };
    const response = await nodeHttpFetch(base);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("hands bodies it does not encode (a stream) to the built-in fetch", async () => {
    handler = (_request, response, body) => response.end(`got ${body}`);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("streamed"));
        controller.close();
      },
    });
    const response = await nodeHttpFetch(base, {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await response.text()).toBe("got streamed");
  });

  it("does not keep the process alive through its keep-alive socket (built package)", async () => {
    handler = (_request, response) => response.end("ok");
    const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
    const script = `
      const { nodeHttpFetch } = await import(${JSON.stringify(dist)});
      const response = await nodeHttpFetch(${JSON.stringify(base)});
      console.log(await response.text());
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const started = Date.now();
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(output.trim()).toBe("ok");
    expect(code).toBe(0);
    // The server holds the connection open for 5 s (Node's keep-alive default); exiting well
    // before that shows the pooled socket does not keep the process alive.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
