import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LightResponse } from "./light-response.js";
import { nodeHttpFetch } from "./node-http-fetch.js";

// The direct read of a nodeHttpFetch body (LightResponse.directBody), which the SSE adapters use
// instead of the web stream; node-http-fetch.test.ts covers the web stream side.
let server: Server;
let base: string;
let handler: (request: IncomingMessage, response: ServerResponse) => void;

beforeEach(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

describe("LightResponse.directBody", () => {
  it("reads the chunks as they arrive, even after `body` was looked at, and then owns the body", async () => {
    let finish: () => void = () => {};
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      finish = () => response.end("data: two\n\n");
    };
    const response = await nodeHttpFetch(base);
    expect(response.body).toBeInstanceOf(ReadableStream); // what the Anthropic SDK does
    const chunks = LightResponse.directBody(response);
    expect(chunks).toBeDefined();
    expect(response.bodyUsed).toBe(true);
    const iterator = (chunks as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await iterator.next()).value)).toBe("data: one\n\n");
    finish();
    let rest = "";
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest += new TextDecoder().decode(next.value);
    expect(rest).toBe("data: two\n\n");
    await expect((response.body as ReadableStream).getReader().read()).rejects.toThrow(/unusable/);
    expect(LightResponse.directBody(response)).toBeUndefined();
  });

  it("is not offered once the web stream has started, nor for other responses", async () => {
    handler = (_request, response) => response.end("hello");
    const response = await nodeHttpFetch(base);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(LightResponse.directBody(response)).toBeUndefined();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("hello");
    expect(LightResponse.directBody(new Response("x"))).toBeUndefined();
  });

  it("fails with TypeError 'terminated' on a cut connection and with the reason on abort", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write("data: partial", () => response.socket?.destroy());
    };
    const cut = LightResponse.directBody(await nodeHttpFetch(base));
    await expect(readAll(cut as AsyncIterable<Uint8Array>)).rejects.toThrow(/terminated/);

    handler = (_request, response) => {
      response.writeHead(200);
      response.write("first");
    };
    const controller = new AbortController();
    const aborted = LightResponse.directBody(await nodeHttpFetch(base, { signal: controller.signal }));
    const iterator = (aborted as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("closes the connection when the reader stops early", async () => {
    let closed = false;
    handler = (request, response) => {
      response.writeHead(200);
      response.write("first");
      request.socket.on("close", () => (closed = true));
    };
    const chunks = LightResponse.directBody(await nodeHttpFetch(base));
    for await (const _chunk of chunks as AsyncIterable<Uint8Array>) break;
    await expect.poll(() => closed).toBe(true);
  });

  it("watches the connection before anything reads: a cut, a corrupt body or an abort still fails the read", async () => {
    const later = () => new Promise((resolve) => setTimeout(resolve, 100));
    handler = (_request, response) => {
      response.writeHead(200, { "content-length": "1000" });
      response.write("data: partial", () => setTimeout(() => response.socket?.destroy(), 10));
    };
    const cutDirect = await nodeHttpFetch(base);
    const cutWeb = await nodeHttpFetch(base);
    await later();
    await expect(readAll(LightResponse.directBody(cutDirect) as AsyncIterable<Uint8Array>)).rejects.toThrow(
      /terminated/,
    );
    await expect(cutWeb.text()).rejects.toThrow(/terminated/);

    handler = (_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip" });
      response.end(Buffer.concat([gzipSync("ok"), Buffer.from("not gzip at all")]).subarray(5));
    };
    const corrupt = await nodeHttpFetch(base);
    await later(); // an unwatched decoder error would have crashed the process by now
    await expect(corrupt.text()).rejects.toThrow();

    let closed = false;
    handler = (request, response) => {
      response.writeHead(200);
      response.write("first");
      request.socket.on("close", () => (closed = true));
    };
    const controller = new AbortController();
    const aborted = await nodeHttpFetch(base, { signal: controller.signal });
    controller.abort();
    await expect.poll(() => closed).toBe(true);
    await expect(aborted.text()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("settles reads made before the last one has, and ends them when the reader stops", async () => {
    let finish: () => void = () => {};
    handler = (_request, response) => {
      response.writeHead(200);
      response.flushHeaders();
      finish = () => response.end("all");
    };
    const iterator = (LightResponse.directBody(await nodeHttpFetch(base)) as AsyncIterable<Uint8Array>)[
      Symbol.asyncIterator
    ]();
    const first = iterator.next();
    const second = iterator.next();
    finish();
    expect(new TextDecoder().decode((await first).value)).toBe("all");
    expect(await second).toEqual({ value: undefined, done: true });

    handler = (_request, response) => {
      response.writeHead(200);
      response.write("x");
    };
    const stopped = (LightResponse.directBody(await nodeHttpFetch(base)) as AsyncIterable<Uint8Array>)[
      Symbol.asyncIterator
    ]();
    await stopped.next();
    const pending = stopped.next();
    await stopped.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
  });

  it("leaves a cloned body to the web streams, and a body the direct reader owns to it", async () => {
    handler = (_request, response) => response.end("hello world");
    const original = await nodeHttpFetch(base);
    const copy = original.clone();
    expect(LightResponse.directBody(original)).toBeUndefined();
    expect([await original.text(), await copy.text()]).toEqual(["hello world", "hello world"]);

    let finish: () => void = () => {};
    handler = (_request, response) => {
      response.writeHead(200);
      response.write("one ");
      finish = () => response.end("two");
    };
    const owned = await nodeHttpFetch(base);
    const view = owned.body as ReadableStream<Uint8Array>;
    const chunks = LightResponse.directBody(owned) as AsyncIterable<Uint8Array>;
    const reading = readAll(chunks);
    await view.cancel(); // what an SDK's clean-up could do with the body it once looked at
    finish();
    expect(await reading).toBe("one two");
  });

  it("fails a corrupt compressed body as fetch does: TypeError 'terminated', the zlib error its cause", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-encoding": "gzip" });
      response.end(Buffer.from("not gzip at all"));
    };
    const chunks = LightResponse.directBody(await nodeHttpFetch(base)) as AsyncIterable<Uint8Array>;
    const failure = await readAll(chunks).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: "terminated", cause: { code: "Z_DATA_ERROR" } });
  });
});
