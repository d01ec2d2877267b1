import type { Credential } from "@nyzhi/auth";
import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collectStream } from "../stream/collect-stream.js";
import { AnthropicLanguageModel } from "./anthropic-language-model.js";
import { ANTHROPIC_OAUTH_BETA, createAnthropicClient } from "./create-anthropic-client.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };

describe("AnthropicLanguageModel against the mock", () => {
  let mock: MockLlm;
  const model = (credential: Credential) =>
    new AnthropicLanguageModel({
      providerId: "anthropic",
      modelId: "claude-haiku-4-5-20251022",
      credential,
      baseUrl: mock.url,
    });

  beforeAll(async () => {
    mock = await startMockLlm({
      scenario: { rules: [{ response: { reasoning: ["Let me ", "think."], text: "Hi." } }] },
    });
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
  });

  it("sends an API key as x-api-key and no Authorization header", async () => {
    await collectStream(
      model({ type: "api-key", providerId: "anthropic", key: "sk-ant-key", source: "env" }).doStream(request),
    );
    const headers = mock.requests[0]!.headers;
    expect(headers["x-api-key"]).toBe("sk-ant-key");
    expect(headers.authorization).toBeUndefined();
    expect(headers["anthropic-beta"]).toBeUndefined();
  });

  it("sends an OAuth token as Authorization: Bearer with the OAuth beta, and no x-api-key", async () => {
    await collectStream(
      model({ type: "oauth", providerId: "anthropic", accessToken: "oauth-token", source: "store" }).doStream(
        request,
      ),
    );
    const headers = mock.requests[0]!.headers;
    expect(headers.authorization).toBe("Bearer oauth-token");
    expect(headers["x-api-key"]).toBeUndefined();
    expect(headers["anthropic-beta"]).toBe(ANTHROPIC_OAUTH_BETA);
  });

  it("streams thinking as reasoning parts and keeps the signature for the next turn", async () => {
    const response = await collectStream(
      model({ type: "api-key", providerId: "anthropic", key: "k", source: "env" }).doStream(request),
    );
    expect(response.reasoning).toBe("Let me think.");
    const end = response.parts.find((part) => part.type === "reasoning-end");
    expect(end).toMatchObject({ type: "reasoning-end", signature: expect.any(String) });
    expect(response.text).toBe("Hi.");
  });
});

describe("AnthropicLanguageModel request body", () => {
  const model = new AnthropicLanguageModel({
    providerId: "anthropic",
    modelId: "claude-haiku-4-5-20251022",
    credential: undefined,
    baseUrl: "http://127.0.0.1:1",
  });

  it("adds cache markers to the system prompt, the last tool and the last message", () => {
    const body = model.buildRequestBody({
      system: [{ text: "rules", cache: true }, { text: "dynamic" }],
      tools: [
        { name: "a", description: "A", inputSchema: { type: "object" } },
        { name: "b", description: "B", inputSchema: { type: "object" } },
      ],
      messages: [
        { role: "user", content: "read it" },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "thinking", signature: "sig" },
            { type: "reasoning", text: "unsigned is dropped" },
            { type: "text", text: "Reading." },
            { type: "tool-call", id: "toolu_1", name: "a", input: { path: "x" } },
          ],
        },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: "toolu_1", toolName: "a", output: "no", isError: true },
          ],
        },
        { role: "user", content: "and now?" },
      ],
    });
    expect(body).toEqual({
      model: "claude-haiku-4-5-20251022",
      max_tokens: 4096,
      stream: true,
      system: [
        { type: "text", text: "rules", cache_control: { type: "ephemeral" } },
        { type: "text", text: "dynamic" },
      ],
      tools: [
        { name: "a", description: "A", input_schema: { type: "object" } },
        {
          name: "b",
          description: "B",
          input_schema: { type: "object" },
          cache_control: { type: "ephemeral" },
        },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "read it" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "thinking", signature: "sig" },
            { type: "text", text: "Reading." },
            { type: "tool_use", id: "toolu_1", name: "a", input: { path: "x" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "no", is_error: true },
            { type: "text", text: "and now?", cache_control: { type: "ephemeral" } },
          ],
        },
      ],
    });
  });

  it("uses a token budget for thinking, or adaptive effort on 4.6 models", () => {
    expect(model.buildRequestBody({ ...request, thinking: { budgetTokens: 20_000 } })).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 20_000 },
      max_tokens: 21_024,
    });
    const sonnet = new AnthropicLanguageModel({
      providerId: "anthropic",
      modelId: "claude-sonnet-4-6-20260217",
      credential: undefined,
      baseUrl: "http://127.0.0.1:1",
    });
    expect(sonnet.buildRequestBody({ ...request, thinking: { effort: "max" } })).toMatchObject({
      thinking: { type: "adaptive" },
      output_config: { effort: "max" },
      max_tokens: 16_384,
    });
  });
});

describe("createAnthropicClient", () => {
  it("turns the SDK's OpenTelemetry spans off unless asked for", async () => {
    const quiet = await createAnthropicClient({ credential: undefined, baseUrl: "http://127.0.0.1:9" });
    expect(quiet.openTelemetry.traces.enabled).toBe(false);
    const traced = await createAnthropicClient({
      credential: undefined,
      baseUrl: "http://127.0.0.1:9",
      openTelemetry: { traces: true },
    });
    expect(traced.openTelemetry.traces.enabled).toBe(true);
  });
});
