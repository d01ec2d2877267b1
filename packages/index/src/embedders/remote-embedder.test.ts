import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbedderError } from "./embedder.js";
import { createRemoteEmbedder } from "./remote-providers.js";

interface Captured {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/** A scripted embeddings server on 127.0.0.1 speaking each vendor's wire format. */
class EmbeddingsServer {
  readonly requests: Captured[] = [];
  /** Status codes to answer before answering normally, one per request. */
  failures: Array<{ status: number; body?: string; retryAfter?: string }> = [];
  dimensions = 3;
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private vector(text: string): number[] {
    return Array.from({ length: this.dimensions }, (_, position) => text.length + position);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = "";
    for await (const piece of request) raw += piece;
    const body = JSON.parse(raw || "{}") as Record<string, unknown>;
    this.requests.push({
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body,
    });
    const failure = this.failures.shift();
    if (failure) {
      response.writeHead(failure.status, failure.retryAfter ? { "retry-after": failure.retryAfter } : {});
      response.end(failure.body ?? "failure");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    const url = request.url ?? "";
    if (url.endsWith("/embeddings")) {
      const input = body.input as string[];
      // Out of order on purpose: clients must sort by index.
      const data = input
        .map((text, index) => ({ object: "embedding", index, embedding: this.vector(text) }))
        .reverse();
      response.end(
        JSON.stringify({
          object: "list",
          data,
          model: body.model,
          usage: { total_tokens: input.length * 2 },
        }),
      );
    } else if (url.endsWith(":batchEmbedContents")) {
      const requests = body.requests as Array<{ content: { parts: Array<{ text: string }> } }>;
      response.end(
        JSON.stringify({
          embeddings: requests.map((entry) => ({ values: this.vector(entry.content.parts[0]?.text ?? "") })),
        }),
      );
    } else if (url === "/api/embed") {
      const input = body.input as string[];
      response.end(
        JSON.stringify({
          model: body.model,
          embeddings: input.map((text) => this.vector(text)),
          prompt_eval_count: 7,
        }),
      );
    } else {
      response.writeHead(404);
      response.end();
    }
  }
}

let server: EmbeddingsServer;

beforeEach(async () => {
  server = new EmbeddingsServer();
  await server.start();
});

afterEach(async () => {
  await server.stop();
});

describe("remote embedders against their wire formats", () => {
  it("OpenAI: batches of 100, bearer key, vectors in input order, dimension and usage from the response", async () => {
    const embedder = createRemoteEmbedder({
      provider: "openai",
      model: "custom-model",
      apiKey: "sk-test",
      baseUrl: server.url,
    });
    expect(embedder.id).toBe("openai:custom-model");
    const texts = Array.from({ length: 150 }, (_, position) => "x".repeat(position + 1));
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(150);
    expect(vectors[0]).toEqual([1, 2, 3]);
    expect(vectors[149]).toEqual([150, 151, 152]);
    expect(server.requests.map((request) => (request.body.input as string[]).length)).toEqual([100, 50]);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      url: "/embeddings",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: { model: "custom-model", encoding_format: "float" },
    });
    expect(embedder.dimensions).toBe(3);
    expect(embedder.id).toBe("openai:custom-model:3");
    expect(embedder.usage.tokens).toBe(300);
  });

  it("OpenAI's default model has a known dimension, and a response of another length is refused", async () => {
    const embedder = createRemoteEmbedder({ provider: "openai", apiKey: "sk-test", baseUrl: server.url });
    expect(embedder.id).toBe("openai:text-embedding-3-small:1536");
    await expect(embedder.embed(["a"])).rejects.toThrow(/returned vectors of 3 numbers, expected 1536/);
  });

  it("Voyage: input_type document for chunks, query for a search", async () => {
    const embedder = createRemoteEmbedder({
      provider: "voyage",
      model: "voyage-code-3",
      apiKey: "pa-test",
      baseUrl: server.url,
    });
    server.dimensions = 1024;
    await embedder.embed(["chunk"]);
    await embedder.embedQuery("question");
    expect(server.requests.map((request) => request.body)).toEqual([
      { model: "voyage-code-3", input: ["chunk"], input_type: "document" },
      { model: "voyage-code-3", input: ["question"], input_type: "query" },
    ]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer pa-test");
  });

  it("Gemini: batchEmbedContents with the key header, task types and 768 numbers", async () => {
    server.dimensions = 768;
    const embedder = createRemoteEmbedder({ provider: "gemini", apiKey: "gm-test", baseUrl: server.url });
    const [vector] = await embedder.embed(["chunk"]);
    await embedder.embedQuery("question");
    expect(vector).toHaveLength(768);
    expect(server.requests[0]).toMatchObject({
      url: "/models/gemini-embedding-001:batchEmbedContents",
      headers: { "x-goog-api-key": "gm-test" },
      body: {
        requests: [
          {
            model: "models/gemini-embedding-001",
            content: { parts: [{ text: "chunk" }] },
            taskType: "RETRIEVAL_DOCUMENT",
            outputDimensionality: 768,
          },
        ],
      },
    });
    const query = server.requests[1]?.body.requests as Array<{ taskType: string }> | undefined;
    expect(query?.[0]?.taskType).toBe("RETRIEVAL_QUERY");
    expect(embedder.id).toBe("gemini:gemini-embedding-001:768");
  });

  it("Ollama: /api/embed without a key", async () => {
    const embedder = createRemoteEmbedder({
      provider: "ollama",
      apiKey: undefined,
      baseUrl: `${server.url}/`,
    });
    expect(await embedder.embed(["one", "three"])).toEqual([
      [3, 4, 5],
      [5, 6, 7],
    ]);
    expect(server.requests[0]).toMatchObject({
      url: "/api/embed",
      body: { model: "nomic-embed-text", input: ["one", "three"] },
    });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(embedder.usage.tokens).toBe(7);
  });
});

describe("remote embedder retries", () => {
  const fast = { retryDelayMs: 1 };

  it("retries 429 and 5xx, honouring Retry-After, then succeeds", async () => {
    server.failures = [{ status: 429, retryAfter: "0" }, { status: 503 }, { status: 500 }];
    const embedder = createRemoteEmbedder({
      provider: "openai",
      model: "m",
      apiKey: "k",
      baseUrl: server.url,
      ...fast,
    });
    expect(await embedder.embed(["a"])).toEqual([[1, 2, 3]]);
    expect(server.requests).toHaveLength(4);
  });

  it("gives up after the last attempt with the last error", async () => {
    server.failures = [{ status: 500 }, { status: 502, body: "bad gateway" }];
    const embedder = createRemoteEmbedder({
      provider: "openai",
      model: "m",
      apiKey: "k",
      baseUrl: server.url,
      attempts: 2,
      ...fast,
    });
    const error = await embedder.embed(["a"]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmbedderError);
    expect((error as Error).message).toBe(
      "openai embeddings failed after 2 attempts (model m): HTTP 502: bad gateway",
    );
  });

  it("does not retry a refused key, and says which setting to check", async () => {
    server.failures = [{ status: 401, body: '{"error":"invalid key"}' }];
    const embedder = createRemoteEmbedder({
      provider: "voyage",
      apiKey: "wrong",
      baseUrl: server.url,
      ...fast,
    });
    await expect(embedder.embed(["a"])).rejects.toThrow(
      'voyage refused the embeddings key (HTTP 401): {"error":"invalid key"}. Check the key (index.embedding = "voyage").',
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection that fails, and stops when aborted", async () => {
    await server.stop();
    const embedder = createRemoteEmbedder({
      provider: "ollama",
      apiKey: undefined,
      baseUrl: server.url,
      attempts: 2,
      ...fast,
    });
    await expect(embedder.embed(["a"])).rejects.toThrow(/ollama embeddings failed after 2 attempts/);
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(["a"], controller.signal)).rejects.toThrow();
    await server.start();
  });
});
