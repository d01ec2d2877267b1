import { type MockLlm, type MockResponse, type Scenario, startMockLlm } from "@nyzhi/mock-llm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthError } from "../errors/provider-error.js";
import type { StreamPart } from "../model/stream-part.js";
import { withRetry } from "../retry/with-retry.js";
import { collectStream } from "../stream/collect-stream.js";
import { ADAPTER_CASES } from "./adapter-cases.js";

const request = {
  system: "You are terse.",
  messages: [{ role: "user" as const, content: "say hello" }],
  tools: [
    {
      name: "read_file",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
  maxTokens: 256,
};

const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30 };

function only(response: MockResponse | MockResponse[], times?: number): Scenario {
  return { rules: [{ name: "answer", response, ...(times === undefined ? {} : { times }) }] };
}

const types = (parts: StreamPart[]) => parts.map((part) => part.type);

describe.each(ADAPTER_CASES)("adapter $name", (adapter) => {
  let mock: MockLlm;

  beforeAll(async () => {
    mock = await startMockLlm();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
  });

  it("streams text and reports usage and the finish reason", async () => {
    mock.setScenario(only({ text: ["Hel", "lo, ", "world"], usage }));
    const response = await collectStream(adapter.create(mock.url).doStream(request));
    expect(response.error).toBeUndefined();
    expect(response.text).toBe("Hello, world");
    expect(types(response.parts)).toEqual([
      "text-start",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-end",
      "usage",
      "finish",
    ]);
    expect(response.usage).toEqual(adapter.expectedUsage);
    expect(response.finishReason).toBe("stop");
    expect(mock.requests[0]).toMatchObject({ api: adapter.api, stream: true, system: "You are terse." });
    expect(mock.requests[0]?.toolsOffered).toEqual(["read_file"]);
  });

  it("streams a tool call in pieces and yields it whole", async () => {
    const args = { path: "src/main.ts", limit: 200, note: "a longer value so the JSON splits" };
    mock.setScenario(
      only({
        text: "Reading.",
        toolCalls: [{ name: "read_file", arguments: args, argumentChunks: 4 }],
        usage,
      }),
    );
    const response = await collectStream(adapter.create(mock.url).doStream(request));
    expect(response.error).toBeUndefined();
    expect(response.finishReason).toBe("tool-calls");
    expect(response.toolCalls).toHaveLength(1);
    const call = response.toolCalls[0]!;
    expect({ name: call.name, input: call.input, arguments: JSON.parse(call.arguments) }).toEqual({
      name: "read_file",
      input: args,
      arguments: args,
    });
    const deltas = response.parts.filter((part) => part.type === "tool-call-delta");
    expect(deltas.length).toBeGreaterThanOrEqual(adapter.splitsToolArguments ? 3 : 1);
    expect(deltas.map((part) => (part.type === "tool-call-delta" ? part.delta : "")).join("")).toBe(
      call.arguments,
    );
    const callTypes = types(response.parts).filter((type) => type.startsWith("tool-call"));
    expect(callTypes[0]).toBe("tool-call-start");
    expect(callTypes.slice(-2)).toEqual(["tool-call-end", "tool-call"]);
    expect(types(response.parts).indexOf("text-end")).toBeLessThan(
      types(response.parts).indexOf("tool-call-start"),
    );
  });

  it("turns a 401 into an auth error naming the env var and the login command", async () => {
    mock.setScenario(only({ fault: { type: "status", status: 401, message: "invalid key" } }));
    const response = await collectStream(adapter.create(mock.url).doStream(request));
    expect(response.error).toBeInstanceOf(AuthError);
    expect(response.error?.code).toBe("auth_failed");
    expect(response.error?.message).toContain(adapter.envVar);
    expect(response.error?.message).toContain(`nyz login ${adapter.providerId}`);
    expect(types(response.parts)).toEqual(["error"]);
  });

  it("retries a 429 after its Retry-After delay, then succeeds", async () => {
    mock.setScenario({
      rules: [
        { name: "limited", times: 1, response: { fault: { type: "status", status: 429, retryAfter: 1 } } },
        { name: "ok", response: { text: "recovered", usage } },
      ],
    });
    const started = Date.now();
    const response = await collectStream(withRetry(adapter.create(mock.url)).doStream(request));
    const elapsed = Date.now() - started;
    expect(response.error).toBeUndefined();
    expect(response.text).toBe("recovered");
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(mock.requests.map((recorded) => recorded.rule)).toEqual(["limited", "ok"]);
  });

  it("turns a mid-stream cut into an error part after the text already streamed", async () => {
    mock.setScenario(
      only({ text: ["one ", "two ", "three ", "four ", "five"], fault: { type: "cut", afterChunks: 5 } }),
    );
    const response = await collectStream(withRetry(adapter.create(mock.url)).doStream(request));
    expect(response.error?.code).toBe("stream_interrupted");
    expect(response.text.length).toBeGreaterThan(0);
    expect(response.parts.at(-1)?.type).toBe("error");
    expect(response.finishReason).toBeUndefined();
    // Output had reached the caller, so the retry wrapper did not start over.
    expect(mock.requests).toHaveLength(1);
  });

  it("turns an error event inside a 200 stream into a server_error part after the text", async () => {
    // The vendor's in-stream error (Anthropic `event: error` with overloaded_error, an OpenAI
    // `error` object, Gemini's error chunk) once some text has streamed.
    mock.setScenario(
      only({
        text: Array.from({ length: 12 }, (_, index) => `${index} `),
        // afterChunks counts SSE events: past every vendor's preamble (Responses sends four).
        fault: { type: "status", status: 529, message: "Overloaded", afterChunks: 8 },
      }),
    );
    const response = await collectStream(withRetry(adapter.create(mock.url)).doStream(request));
    expect(response.text.length).toBeGreaterThan(0);
    expect(response.parts.at(-1)?.type).toBe("error");
    expect(response.error?.code).toBe("server_error");
    expect(response.error?.message).toContain("Overloaded");
    expect(mock.requests).toHaveLength(1);
  });

  it("turns a malformed event into an invalid_response error part", async () => {
    // After 3 events: past Anthropic's message_start and ping, which the SDK does not parse.
    mock.setScenario(
      only({ text: ["1 ", "2 ", "3 ", "4 ", "5"], fault: { type: "malformed", afterChunks: 3 } }),
    );
    const response = await collectStream(withRetry(adapter.create(mock.url)).doStream(request));
    expect(response.error?.code).toBe("invalid_response");
    expect(mock.requests).toHaveLength(1);
  });

  it("retries a stream cut before any content arrived", async () => {
    mock.setScenario({
      rules: [
        { name: "cut", times: 1, response: { text: ["a", "b"], fault: { type: "cut", afterChunks: 0 } } },
        { name: "ok", response: { text: ["fine"] } },
      ],
    });
    const response = await collectStream(
      withRetry(adapter.create(mock.url), { initialBackoffMs: 10 }).doStream(request),
    );
    expect(response.error).toBeUndefined();
    expect(response.text).toBe("fine");
    expect(mock.requests.map((recorded) => recorded.rule)).toEqual(["cut", "ok"]);
  });

  it("stops within 100 ms of an abort while the server hangs", async () => {
    mock.setScenario(only({ fault: { type: "hang" } }));
    const controller = new AbortController();
    // The stream is lazy: collecting starts the request.
    const collecting = collectStream(
      withRetry(adapter.create(mock.url)).doStream(request, { signal: controller.signal }),
    );
    await mock.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const abortedAt = Date.now();
    controller.abort();
    const collected = await collecting;
    expect(Date.now() - abortedAt).toBeLessThan(100);
    expect(collected.error?.code).toBe("aborted");
    expect(mock.requests).toHaveLength(1);
  });

  it("stops within 100 ms of an abort between slow chunks", async () => {
    mock.setScenario(only({ text: ["a", "b", "c", "d"], chunkDelayMs: 150 }));
    const controller = new AbortController();
    const parts: StreamPart[] = [];
    let abortedAt = 0;
    for await (const part of withRetry(adapter.create(mock.url)).doStream(request, {
      signal: controller.signal,
    })) {
      parts.push(part);
      if (part.type === "text-delta" && abortedAt === 0) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(100);
    expect(types(parts)).toEqual(["text-start", "text-delta", "error"]);
    expect(parts.at(-1)).toMatchObject({ type: "error", error: { code: "aborted" } });
  });
});
