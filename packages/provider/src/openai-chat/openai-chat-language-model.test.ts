import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelRequest } from "../model/model-request.js";
import { collectStream } from "../stream/collect-stream.js";
import { OpenAIChatLanguageModel } from "./openai-chat-language-model.js";

/** A tool round as the agent lays it out: assistant text + two calls, then both results. */
const toolRound: ModelRequest = {
  system: "sys",
  messages: [
    { role: "user", content: "read two files" },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "not sent back" },
        { type: "text", text: "Reading both." },
        { type: "tool-call", id: "call_1", name: "read_file", input: { path: "a.ts" } },
        { type: "tool-call", id: "call_2", name: "read_file", input: { path: "b.ts" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "read_file", output: "export const a = 1;" },
        { type: "tool-result", toolCallId: "call_2", toolName: "read_file", output: "ENOENT", isError: true },
      ],
    },
  ],
  tools: [{ name: "read_file", description: "Read", inputSchema: { type: "object" } }],
  maxTokens: 100,
  temperature: 0.2,
};

describe("OpenAIChatLanguageModel", () => {
  let mock: MockLlm;

  beforeAll(async () => {
    mock = await startMockLlm({
      scenario: { rules: [{ match: { lastIsToolResult: true }, response: { text: "done" } }] },
    });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("sends assistant tool_calls and one role:tool message per result", async () => {
    const model = new OpenAIChatLanguageModel({
      providerId: "openai",
      modelId: "gpt-5.2",
      credential: { type: "api-key", providerId: "openai", key: "sk-test", source: "env" },
      baseUrl: `${mock.url}/v1`,
      maxTokensField: "max_completion_tokens",
    });
    const response = await collectStream(model.doStream(toolRound));
    expect(response.text).toBe("done");
    const recorded = mock.requests[0]!;
    expect(recorded.headers.authorization).toBe("Bearer sk-test");
    expect(recorded.body).toEqual({
      model: "gpt-5.2",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
      temperature: 0.2,
      tools: [
        {
          type: "function",
          function: { name: "read_file", description: "Read", parameters: { type: "object" } },
        },
      ],
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "read two files" },
        {
          role: "assistant",
          content: "Reading both.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
            { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b.ts"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "export const a = 1;" },
        { role: "tool", tool_call_id: "call_2", content: "Error: ENOENT" },
      ],
    });
    expect(recorded.messages.slice(2)).toEqual([
      {
        role: "assistant",
        text: "Reading both.",
        toolCalls: [
          { id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' },
          { id: "call_2", name: "read_file", arguments: '{"path":"b.ts"}' },
        ],
      },
      { role: "tool", text: "", toolResults: [{ id: "call_1", content: "export const a = 1;" }] },
      { role: "tool", text: "", toolResults: [{ id: "call_2", content: "Error: ENOENT" }] },
    ]);
  });

  it("sends reasoning_effort instead of temperature when thinking, and kimi's thinking switch", () => {
    const settings = { providerId: "kimi", credential: undefined, baseUrl: "http://127.0.0.1:1" };
    const gpt = new OpenAIChatLanguageModel({ ...settings, modelId: "gpt-5.2" });
    const body = gpt.buildRequestBody({ ...toolRound, thinking: { effort: "low" } });
    expect(body.reasoning_effort).toBe("low");
    expect(body.temperature).toBeUndefined();
    expect(body.max_tokens).toBe(100);
    const kimi = new OpenAIChatLanguageModel({ ...settings, modelId: "kimi-k2.5" });
    expect(kimi.buildRequestBody({ ...toolRound, thinking: {} })).toMatchObject({
      thinking: { type: "enabled" },
      temperature: 1,
      top_p: 0.95,
    });
  });
});
