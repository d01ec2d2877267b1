import Anthropic from "@anthropic-ai/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, startMockLlm } from "./index.js";

let mock: MockLlm;
let client: Anthropic;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
  client = new Anthropic({ apiKey: "test", baseURL: mock.url, maxRetries: 0, logLevel: "off" });
});

afterEach(async () => {
  await mock.close();
});

const tools = [
  { name: "read_file", description: "read", input_schema: { type: "object" as const, properties: {} } },
];

describe("Anthropic Messages", () => {
  it("streams text deltas in order and reports usage", async () => {
    mock.setScenario({
      rules: [{ response: { text: ["Hel", "lo, ", "world"], usage: { inputTokens: 12, outputTokens: 3 } } }],
    });
    const stream = client.messages.stream({
      model: "claude-test",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    const deltas: string[] = [];
    stream.on("text", (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas).toEqual(["Hel", "lo, ", "world"]);
    expect(message.content).toEqual([{ type: "text", text: "Hello, world" }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.input_tokens).toBe(12);
    expect(message.usage.output_tokens).toBe(3);
    expect(message.model).toBe("claude-test");
  });

  it("streams thinking with a signature before the text", async () => {
    mock.setScenario({ rules: [{ response: { reasoning: ["Let me ", "think."], text: "Done." } }] });
    const message = await client.messages
      .stream({ model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Let me think." });
    expect((message.content[0] as { signature: string }).signature.length).toBeGreaterThan(0);
    expect(message.content[1]).toEqual({ type: "text", text: "Done." });
  });

  it("reassembles tool-call arguments streamed in several input_json_delta chunks", async () => {
    const args = { path: "src/index.ts", lines: [1, 20], recursive: false };
    mock.setScenario({
      rules: [
        {
          response: {
            text: "Reading.",
            toolCalls: [{ name: "read_file", arguments: args, argumentChunks: 4 }],
          },
        },
      ],
    });
    const stream = client.messages.stream({
      model: "m",
      max_tokens: 100,
      tools,
      messages: [{ role: "user", content: "read it" }],
    });
    const partials: string[] = [];
    stream.on("inputJson", (partial) => partials.push(partial));
    const message = await stream.finalMessage();
    expect(partials).toHaveLength(4);
    expect(partials.join("")).toBe(JSON.stringify(args));
    const toolUse = message.content.find((block) => block.type === "tool_use");
    expect(toolUse).toMatchObject({ type: "tool_use", name: "read_file", input: args });
    expect(toolUse?.id).toMatch(/^toolu_/);
    expect(message.stop_reason).toBe("tool_use");
  });

  it("gives each tool call a unique id", async () => {
    mock.setScenario({
      rules: [
        {
          response: {
            toolCalls: [
              { name: "read_file", arguments: { a: 1 } },
              { name: "read_file", arguments: {} },
            ],
          },
        },
      ],
    });
    const first = await client.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "x" }],
    });
    const second = await client.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "x" }],
    });
    const ids = [...first.content, ...second.content].map((block) =>
      block.type === "tool_use" ? block.id : "",
    );
    expect(new Set(ids).size).toBe(4);
    expect(first.content[0]).toMatchObject({ type: "tool_use", input: { a: 1 } });
  });

  it("answers non-streaming requests with a whole message", async () => {
    mock.setScenario({
      rules: [{ response: { text: "Hello there", usage: { inputTokens: 5, outputTokens: 2 } } }],
    });
    const message = await client.messages.create({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "Hello there" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 5, output_tokens: 2 },
    });
  });

  it("records system, messages with tool calls and results, and tools offered", async () => {
    mock.setScenario({ rules: [{ name: "any", response: { text: "ok" } }] });
    await client.messages.create({
      model: "claude-test",
      max_tokens: 10,
      system: [{ type: "text", text: "You are nyzhi." }],
      tools,
      messages: [
        { role: "user", content: "read a.ts" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading." },
            { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "export {}", is_error: false }],
        },
      ],
    });
    const [request] = mock.requests;
    expect(request).toMatchObject({
      index: 1,
      api: "anthropic",
      method: "POST",
      path: "/v1/messages",
      model: "claude-test",
      stream: false,
      system: "You are nyzhi.",
      toolsOffered: ["read_file"],
      rule: "any",
      status: 200,
    });
    expect(request?.messages).toEqual([
      { role: "user", text: "read a.ts" },
      {
        role: "assistant",
        text: "Reading.",
        toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a.ts"}' }],
      },
      { role: "tool", text: "", toolResults: [{ id: "toolu_1", content: "export {}" }] },
    ]);
    expect(request?.headers["anthropic-version"]).toBeDefined();
    expect(request?.headers["user-agent"]).toContain("Anthropic");
    expect(request?.endedAt).toBeGreaterThanOrEqual(request?.startedAt ?? Number.POSITIVE_INFINITY);
  });

  it("answers errors in Anthropic's shape, with Retry-After on 429", async () => {
    mock.setScenario({
      rules: [{ response: { fault: { type: "status", status: 429, retryAfter: 7, message: "slow down" } } }],
    });
    const error = await client.messages
      .create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.headers?.get("retry-after")).toBe("7");
    expect(apiError.error).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    });
  });

  it("makes the SDK stream throw when the stream is cut mid-event", async () => {
    mock.setScenario({
      rules: [{ response: { text: ["a", "b", "c", "d"], fault: { type: "cut", afterChunks: 4 } } }],
    });
    const stream = client.messages.stream({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    const deltas: string[] = [];
    stream.on("text", (text) => deltas.push(text));
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(deltas).toEqual(["a"]);
  });

  it("makes the SDK stream throw on a malformed event", async () => {
    mock.setScenario({
      rules: [{ response: { text: "hello", fault: { type: "malformed", afterChunks: 2 } } }],
    });
    const stream = client.messages.stream({
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/JSON/);
  });
});
