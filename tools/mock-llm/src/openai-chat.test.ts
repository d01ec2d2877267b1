import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, startMockLlm } from "./index.js";

let mock: MockLlm;
let client: OpenAI;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
  client = new OpenAI({ apiKey: "test", baseURL: `${mock.url}/v1`, maxRetries: 0, logLevel: "off" });
});

afterEach(async () => {
  await mock.close();
});

const tools = [
  { type: "function" as const, function: { name: "read_file", parameters: { type: "object" } } },
];

describe("OpenAI Chat Completions", () => {
  it("streams content deltas in order, then finish_reason and a usage chunk", async () => {
    mock.setScenario({
      rules: [{ response: { text: ["Hel", "lo", "!"], usage: { inputTokens: 9, outputTokens: 3 } } }],
    });
    const stream = await client.chat.completions.create({
      model: "gpt-test",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    const deltas: string[] = [];
    const finishReasons: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      if (choice?.finish_reason) finishReasons.push(choice.finish_reason);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas).toEqual(["Hel", "lo", "!"]);
    expect(finishReasons).toEqual(["stop"]);
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
  });

  it("streams tool-call arguments across several chunks that accumulate to the object", async () => {
    const args = { path: "src/main.ts", limit: 40 };
    mock.setScenario({
      rules: [
        {
          response: {
            toolCalls: [
              { name: "read_file", arguments: args, argumentChunks: 3 },
              { name: "read_file", arguments: { path: "b.ts" } },
            ],
          },
        },
      ],
    });
    const stream = await client.chat.completions.create({
      model: "gpt-test",
      stream: true,
      tools,
      messages: [{ role: "user", content: "read" }],
    });
    const calls: { id: string; name: string; arguments: string; chunks: number }[] = [];
    let finishReason: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      for (const delta of choice?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { id: "", name: "", arguments: "", chunks: 0 };
        const call = calls[delta.index]!;
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name = delta.function.name;
        if (delta.function?.arguments) {
          call.arguments += delta.function.arguments;
          call.chunks++;
        }
      }
      finishReason = choice?.finish_reason ?? finishReason;
    }
    expect(calls).toHaveLength(2);
    expect(calls[0]?.chunks).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(calls[0]?.arguments ?? "")).toEqual(args);
    expect(JSON.parse(calls[1]?.arguments ?? "")).toEqual({ path: "b.ts" });
    expect(calls[0]?.name).toBe("read_file");
    expect(calls[0]?.id).not.toBe(calls[1]?.id);
    expect(finishReason).toBe("tool_calls");
  });

  it("accumulates in the SDK's own chat stream helper", async () => {
    const args = { query: "needle", paths: ["a", "b"] };
    mock.setScenario({
      rules: [{ response: { text: "Searching.", toolCalls: [{ name: "grep", arguments: args }] } }],
    });
    const completion = await client.chat.completions
      .stream({ model: "gpt-test", tools, messages: [{ role: "user", content: "find" }] })
      .finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe("Searching.");
    const call = message?.tool_calls?.[0];
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual(args);
  });

  it("answers non-streaming requests with a whole completion", async () => {
    mock.setScenario({
      rules: [{ response: { text: "Hi there", toolCalls: [{ name: "read_file", arguments: { a: 1 } }] } }],
    });
    const completion = await client.chat.completions.create({
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(completion.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: "Hi there",
        tool_calls: [{ type: "function", function: { name: "read_file", arguments: '{"a":1}' } }],
      },
    });
  });

  it("records system, tool calls and tool results", async () => {
    mock.setScenario({ rules: [{ response: { text: "ok" } }] });
    await client.chat.completions.create({
      model: "gpt-test",
      tools,
      messages: [
        { role: "system", content: "You are nyzhi." },
        { role: "user", content: "read a.ts" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "export {}" },
      ],
    });
    const [request] = mock.requests;
    expect(request).toMatchObject({
      api: "openai-chat",
      path: "/v1/chat/completions",
      system: "You are nyzhi.",
    });
    expect(request?.toolsOffered).toEqual(["read_file"]);
    expect(request?.rule).toBe("rule#0");
    expect(request?.messages).toEqual([
      { role: "system", text: "You are nyzhi." },
      { role: "user", text: "read a.ts" },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' }],
      },
      { role: "tool", text: "", toolResults: [{ id: "call_1", content: "export {}" }] },
    ]);
  });

  it("passes a 429 with Retry-After to the SDK as a RateLimitError", async () => {
    mock.setScenario({ rules: [{ response: { fault: { type: "status", status: 429, retryAfter: 3 } } }] });
    const error = await client.chat.completions
      .create({ model: "gpt-test", messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("3");
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("rate_limit_exceeded");
  });

  it("answers 500 and 401 in OpenAI's error shape", async () => {
    mock.setScenario({
      rules: [
        { match: { requestIndex: 1 }, response: { fault: { type: "status", status: 500, message: "boom" } } },
        { response: { fault: { type: "status", status: 401 } } },
      ],
    });
    const request = () =>
      client.chat.completions
        .create({ model: "m", messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
    const first = await request();
    const second = await request();
    expect(first).toBeInstanceOf(OpenAI.InternalServerError);
    expect((first as Error).message).toContain("boom");
    expect(second).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it("makes the SDK stream throw when cut, after the chunks before the cut", async () => {
    mock.setScenario({
      rules: [{ response: { text: ["a", "b", "c"], fault: { type: "cut", afterChunks: 2 } } }],
    });
    const stream = await client.chat.completions.create({
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    const deltas: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? "");
      })(),
    ).rejects.toThrow();
    expect(deltas.join("")).toBe("a");
  });

  it("makes the SDK throw on malformed JSON, streaming and not", async () => {
    mock.setScenario({ rules: [{ response: { text: "hello", fault: { type: "malformed" } } }] });
    const stream = await client.chat.completions.create({
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    await expect(
      (async () => {
        for await (const _chunk of stream) {
          // drain
        }
      })(),
    ).rejects.toThrow(/JSON/);
    await expect(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toThrow();
  });
});
