import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, startMockLlm } from "./index.js";

let mock: MockLlm;
let anthropic: Anthropic;
let openai: OpenAI;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
  anthropic = new Anthropic({ apiKey: "test", baseURL: mock.url, maxRetries: 0, logLevel: "off" });
  openai = new OpenAI({ apiKey: "test", baseURL: `${mock.url}/v1`, maxRetries: 0, logLevel: "off" });
});

afterEach(async () => {
  await mock.close();
});

const messages = [{ role: "user" as const, content: "hi" }];

describe("faults", () => {
  it("hangs until the client aborts", async () => {
    mock.setScenario({ rules: [{ response: { fault: { type: "hang" } } }] });
    const controller = new AbortController();
    const pending = anthropic.messages.create(
      { model: "m", max_tokens: 10, messages },
      { signal: controller.signal },
    );
    await mock.waitForRequests(1, 2000);
    expect(mock.openNow).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow(Anthropic.APIUserAbortError);
    await waitFor(() => mock.openNow === 0);
    expect(mock.requests[0]?.endedAt).toBeDefined();
    expect(mock.requests[0]?.status).toBeUndefined();
  });

  it("hangs mid-stream after some events, until the client aborts", async () => {
    mock.setScenario({
      rules: [{ response: { text: ["one", "two"], fault: { type: "hang", afterChunks: 2 } } }],
    });
    const controller = new AbortController();
    const stream = await openai.chat.completions.create(
      { model: "m", stream: true, messages },
      { signal: controller.signal },
    );
    const deltas: string[] = [];
    for await (const chunk of stream) {
      deltas.push(chunk.choices[0]?.delta.content ?? "");
      if (deltas.length === 2) controller.abort();
    }
    expect(deltas).toEqual(["", "one"]);
  });

  it("close() ends hanging responses", async () => {
    mock.setScenario({ rules: [{ response: { fault: { type: "hang" } } }] });
    const pending = anthropic.messages
      .create({ model: "m", max_tokens: 10, messages })
      .catch((caught: unknown) => caught);
    await mock.waitForRequests(1, 2000);
    await mock.close();
    expect(await pending).toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it("sends a provider error event inside an open stream (status with afterChunks)", async () => {
    mock.setScenario({
      rules: [
        {
          response: {
            text: ["partial", " answer"],
            fault: { type: "status", status: 529, message: "Overloaded", afterChunks: 4 },
          },
        },
      ],
    });
    const stream = anthropic.messages.stream({ model: "m", max_tokens: 10, messages });
    const deltas: string[] = [];
    stream.on("text", (text) => deltas.push(text));
    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    expect(deltas).toEqual(["partial"]);

    const chat = await openai.chat.completions.create({ model: "m", stream: true, messages });
    await expect(
      (async () => {
        for await (const _chunk of chat) {
          // drain until the error event
        }
      })(),
    ).rejects.toThrow("Overloaded");
  });

  it("cuts a non-streaming body halfway", async () => {
    mock.setScenario({
      rules: [{ response: { text: "a long enough answer", fault: { type: "cut", afterChunks: 0 } } }],
    });
    await expect(openai.chat.completions.create({ model: "m", messages })).rejects.toThrow();
    expect(mock.requests[0]?.status).toBe(200);
  });

  it("delays the start of a response by delayMs", async () => {
    mock.setScenario({ rules: [{ response: { text: "late", delayMs: 150 } }] });
    const started = Date.now();
    await openai.chat.completions.create({ model: "m", messages });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("concurrency", () => {
  it("measures overlapping requests in maxConcurrent", async () => {
    mock.setScenario({ rules: [{ response: { text: "ok", delayMs: 150 } }] });
    await Promise.all(
      [1, 2, 3].map(() => anthropic.messages.create({ model: "m", max_tokens: 10, messages })),
    );
    expect(mock.maxConcurrent).toBe(3);
    expect(mock.openNow).toBe(0);
    mock.reset();
    await anthropic.messages.create({ model: "m", max_tokens: 10, messages });
    await anthropic.messages.create({ model: "m", max_tokens: 10, messages });
    expect(mock.maxConcurrent).toBe(1);
  });

  it("numbers the connections requests arrive on", async () => {
    mock.setScenario({ rules: [{ response: { text: "ok" } }] });
    await Promise.all([1, 2].map(() => anthropic.messages.create({ model: "m", max_tokens: 10, messages })));
    // Sequential requests reuse a kept-alive connection.
    await anthropic.messages.create({ model: "m", max_tokens: 10, messages });
    expect(
      mock.requests
        .slice(0, 2)
        .map((request) => request.connection)
        .sort(),
    ).toEqual([1, 2]);
    expect([1, 2]).toContain(mock.requests[2]?.connection);
  });

  it("waitForRequests resolves once enough requests arrived and rejects on timeout", async () => {
    mock.setScenario({ rules: [{ response: { text: "ok" } }] });
    const waiting = mock.waitForRequests(2, 2000);
    await openai.chat.completions.create({ model: "m", messages });
    await openai.chat.completions.create({ model: "m", messages });
    expect(await waiting).toHaveLength(2);
    await expect(mock.waitForRequests(3, 50)).rejects.toThrow("waited 50 ms for 3 requests, got 2");
  });
});

describe("models", () => {
  it("lists scenario models in OpenAI's shape, and Anthropic's with anthropic-version", async () => {
    mock.setScenario({
      models: ["gpt-x"],
      rules: [{ match: { model: "claude-y" }, response: { text: "" } }],
    });
    const openaiModels = await openai.models.list();
    expect(openaiModels.data.map((model) => model.id)).toEqual(["gpt-x", "claude-y"]);
    const anthropicModels = await anthropic.models.list();
    expect(anthropicModels.data.map((model) => model.id)).toEqual(["gpt-x", "claude-y"]);
    expect(anthropicModels.data[0]?.type).toBe("model");
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
