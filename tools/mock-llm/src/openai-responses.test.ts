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

const tools = [{ type: "function" as const, name: "grep", parameters: { type: "object" }, strict: false }];

describe("OpenAI Responses", () => {
  it("streams reasoning summary, text and function-call arguments as events", async () => {
    const args = { pattern: "TODO", paths: ["src", "test"] };
    mock.setScenario({
      rules: [
        {
          response: {
            reasoning: ["Think", "ing."],
            text: ["Look", "ing ", "now."],
            toolCalls: [{ name: "grep", arguments: args, argumentChunks: 4 }],
            usage: { inputTokens: 20, outputTokens: 8, cacheReadTokens: 5 },
          },
        },
      ],
    });
    const stream = await client.responses.create({
      model: "gpt-5",
      input: "find todos",
      tools,
      stream: true,
    });
    const types: string[] = [];
    const textDeltas: string[] = [];
    const reasoningDeltas: string[] = [];
    const argumentDeltas: string[] = [];
    let argumentsDone = "";
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") textDeltas.push(event.delta);
      if (event.type === "response.reasoning_summary_text.delta") reasoningDeltas.push(event.delta);
      if (event.type === "response.function_call_arguments.delta") argumentDeltas.push(event.delta);
      if (event.type === "response.function_call_arguments.done") argumentsDone = event.arguments;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(textDeltas).toEqual(["Look", "ing ", "now."]);
    expect(reasoningDeltas).toEqual(["Think", "ing."]);
    expect(argumentDeltas.length).toBeGreaterThanOrEqual(3);
    expect(argumentDeltas.join("")).toBe(argumentsDone);
    expect(JSON.parse(argumentsDone)).toEqual(args);
    expect(completed?.usage).toMatchObject({
      input_tokens: 20,
      output_tokens: 8,
      input_tokens_details: { cached_tokens: 5 },
    });
    expect(completed?.output.map((item) => item.type)).toEqual(["reasoning", "message", "function_call"]);
  });

  it("builds a consistent final response in the SDK's own stream helper", async () => {
    const args = { pattern: "x" };
    mock.setScenario({
      rules: [{ response: { text: "Done here.", toolCalls: [{ name: "grep", arguments: args }] } }],
    });
    const response = await client.responses.stream({ model: "gpt-5", input: "go", tools }).finalResponse();
    expect(response.output_text).toBe("Done here.");
    const call = response.output.find((item) => item.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "grep", arguments: JSON.stringify(args) });
  });

  it("returns a full response object without streaming", async () => {
    mock.setScenario({
      rules: [
        { response: { text: "Hello", toolCalls: [{ name: "grep", arguments: { a: 1 }, id: "call_fixed" }] } },
      ],
    });
    const response = await client.responses.create({ model: "gpt-5", input: "hi" });
    expect(response.status).toBe("completed");
    expect(response.output_text).toBe("Hello");
    expect(response.output[1]).toMatchObject({
      type: "function_call",
      call_id: "call_fixed",
      arguments: '{"a":1}',
    });
  });

  it("records instructions, function calls and their outputs", async () => {
    mock.setScenario({
      rules: [{ match: { lastIsToolResult: true }, name: "after-tool", response: { text: "ok" } }],
    });
    await client.responses.create({
      model: "gpt-5",
      instructions: "You are nyzhi.",
      tools,
      input: [
        { role: "user", content: [{ type: "input_text", text: "grep it" }] },
        { type: "function_call", call_id: "call_1", name: "grep", arguments: '{"pattern":"x"}' },
        { type: "function_call_output", call_id: "call_1", output: "a.ts:1" },
      ],
    });
    const [request] = mock.requests;
    expect(request).toMatchObject({ api: "openai-responses", system: "You are nyzhi.", rule: "after-tool" });
    expect(request?.toolsOffered).toEqual(["grep"]);
    expect(request?.messages).toEqual([
      { role: "user", text: "grep it" },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_1", name: "grep", arguments: '{"pattern":"x"}' }],
      },
      { role: "tool", text: "", toolResults: [{ id: "call_1", content: "a.ts:1" }] },
    ]);
  });

  it("ends with response.incomplete when the answer hits the length limit", async () => {
    mock.setScenario({ rules: [{ response: { text: "Trunc", finishReason: "length" } }] });
    const response = await client.responses.create({ model: "gpt-5", input: "hi" });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("passes a 429 with Retry-After to the SDK", async () => {
    mock.setScenario({ rules: [{ response: { fault: { type: "status", status: 429, retryAfter: 2 } } }] });
    const error = await client.responses
      .create({ model: "gpt-5", input: "hi" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get("retry-after")).toBe("2");
  });

  it("makes the stream throw when cut", async () => {
    mock.setScenario({ rules: [{ response: { text: "a b c d", fault: { type: "cut", afterChunks: 5 } } }] });
    const stream = await client.responses.create({ model: "gpt-5", input: "hi", stream: true });
    const types: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) types.push(event.type);
      })(),
    ).rejects.toThrow();
    expect(types).toHaveLength(5);
  });
});
