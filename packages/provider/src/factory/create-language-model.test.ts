import { type MockLlm, startMockLlm } from "@nyzhi/mock-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicLanguageModel } from "../anthropic/anthropic-language-model.js";
import { GeminiLanguageModel } from "../gemini/gemini-language-model.js";
import { OpenAIChatLanguageModel } from "../openai-chat/openai-chat-language-model.js";
import { OPENAI_COMPATIBLE_PRESETS } from "../openai-compatible/openai-compatible-presets.js";
import { OpenAIResponsesLanguageModel } from "../openai-responses/openai-responses-language-model.js";
import { collectStream } from "../stream/collect-stream.js";
import { createLanguageModel } from "./create-language-model.js";
import { anthropicSdkBaseUrl, resolveBaseUrl } from "./resolve-base-url.js";

describe("resolveBaseUrl", () => {
  it("prefers the explicit URL, then config, then the env var, then the built-in default", () => {
    const env = { ANTHROPIC_BASE_URL: "http://env" };
    const config = { provider: { default: "anthropic", anthropic: { base_url: "http://config" } } };
    expect(resolveBaseUrl({ providerId: "anthropic", baseUrl: "http://flag", config, env })).toBe(
      "http://flag",
    );
    expect(resolveBaseUrl({ providerId: "anthropic", config, env })).toBe("http://config");
    expect(resolveBaseUrl({ providerId: "anthropic", env })).toBe("http://env");
    expect(resolveBaseUrl({ providerId: "anthropic", env: {} })).toBe("https://api.anthropic.com/v1");
    expect(resolveBaseUrl({ providerId: "anthropic", env: { ANTHROPIC_BASE_URL: "" } })).toBe(
      "https://api.anthropic.com/v1",
    );
  });

  it("reads each built-in provider's base-URL variable, and <ID>_BASE_URL for other ids", () => {
    expect(resolveBaseUrl({ providerId: "openai", env: { OPENAI_BASE_URL: "http://o" } })).toBe("http://o");
    expect(resolveBaseUrl({ providerId: "kimi", env: { MOONSHOT_BASE_URL: "http://k" } })).toBe("http://k");
    expect(resolveBaseUrl({ providerId: "my-llm", env: { MY_LLM_BASE_URL: "http://m" } })).toBe("http://m");
    expect(resolveBaseUrl({ providerId: "my-llm", env: {} })).toBeUndefined();
  });

  it("strips /v1 for the Anthropic SDK, which adds it", () => {
    expect(anthropicSdkBaseUrl("https://api.anthropic.com/v1")).toBe("https://api.anthropic.com");
    expect(anthropicSdkBaseUrl("https://api.minimax.io/anthropic/")).toBe("https://api.minimax.io/anthropic");
  });
});

describe("createLanguageModel", () => {
  const env = {};

  it("picks the adapter from config api_style, else the built-in table, else openai", () => {
    expect(createLanguageModel({ providerId: "anthropic", env })).toBeInstanceOf(AnthropicLanguageModel);
    expect(createLanguageModel({ providerId: "kimi-coding", env })).toBeInstanceOf(AnthropicLanguageModel);
    expect(createLanguageModel({ providerId: "minimax-coding", env })).toBeInstanceOf(AnthropicLanguageModel);
    expect(createLanguageModel({ providerId: "gemini", env })).toBeInstanceOf(GeminiLanguageModel);
    expect(createLanguageModel({ providerId: "glm-coding", env })).toBeInstanceOf(OpenAIChatLanguageModel);
    expect(createLanguageModel({ providerId: "codex", env })).toBeInstanceOf(OpenAIResponsesLanguageModel);
    expect(createLanguageModel({ providerId: "claude-sdk", env })).toBeInstanceOf(AnthropicLanguageModel);
    const custom = createLanguageModel({ providerId: "my-llm", modelId: "x", env });
    expect(custom).toBeInstanceOf(OpenAIChatLanguageModel);
    const responses = createLanguageModel({
      providerId: "openai",
      config: { provider: { openai: { api_style: "openai-responses" } } },
      env,
    });
    expect(responses).toBeInstanceOf(OpenAIResponsesLanguageModel);
  });

  it("chooses the model: explicit, then config, then the provider default", () => {
    expect(createLanguageModel({ providerId: "groq", env }).modelId).toBe("llama-3.3-70b-versatile");
    expect(
      createLanguageModel({ providerId: "groq", config: { provider: { groq: { model: "x" } } }, env })
        .modelId,
    ).toBe("x");
    expect(createLanguageModel({ providerId: "groq", modelId: "y", env }).modelId).toBe("y");
    expect(() => createLanguageModel({ providerId: "openrouter", env })).toThrow(/No model given/);
  });

  it("rejects api styles it does not implement", () => {
    expect(() => createLanguageModel({ providerId: "cursor", env })).toThrow(
      /Unsupported api_style 'cursor'/,
    );
    expect(() => createLanguageModel({ providerId: "github-copilot", modelId: "m", env })).toThrow(/copilot/);
  });

  it("has an OpenAI-compatible preset for every openai-style built-in provider", () => {
    expect(OPENAI_COMPATIBLE_PRESETS.map((preset) => preset.providerId)).toEqual([
      "openai",
      "openrouter",
      "groq",
      "together",
      "deepseek",
      "ollama",
      "kimi",
      "minimax",
      "glm",
      "glm-coding",
    ]);
  });
});

describe("createLanguageModel against the mock", () => {
  let mock: MockLlm;
  beforeAll(async () => {
    mock = await startMockLlm({ scenario: { rules: [{ response: { text: "hi" } }] } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("sends OpenRouter's attribution headers and the key from config base_url", async () => {
    const model = createLanguageModel({
      providerId: "openrouter",
      modelId: "anthropic/claude",
      credential: { type: "api-key", providerId: "openrouter", key: "or-key", source: "config" },
      config: { provider: { openrouter: { base_url: `${mock.url}/v1` } } },
      env: {},
    });
    expect((await collectStream(model.doStream({ messages: [{ role: "user", content: "x" }] }))).text).toBe(
      "hi",
    );
    const headers = mock.requests.at(-1)!.headers;
    expect(headers["http-referer"]).toBe("https://github.com/nyzhi/code");
    expect(headers["x-title"]).toBe("nyzhi");
    expect(headers.authorization).toBe("Bearer or-key");
  });

  it("sends no Authorization header without a credential (local Ollama)", async () => {
    const model = createLanguageModel({ providerId: "ollama", env: { OLLAMA_BASE_URL: `${mock.url}/v1` } });
    expect((await collectStream(model.doStream({ messages: [{ role: "user", content: "x" }] }))).text).toBe(
      "hi",
    );
    expect(mock.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("sends a Gemini API key as x-goog-api-key and an OAuth token as Bearer", async () => {
    const baseUrl = `${mock.url}/v1beta`;
    const request = { messages: [{ role: "user" as const, content: "x" }] };
    await collectStream(
      createLanguageModel({
        providerId: "gemini",
        baseUrl,
        credential: { type: "api-key", providerId: "gemini", key: "AIza-key", source: "env" },
      }).doStream(request),
    );
    expect(mock.requests.at(-1)!.headers["x-goog-api-key"]).toBe("AIza-key");
    expect(mock.requests.at(-1)!.path).not.toContain("key=");
    await collectStream(
      createLanguageModel({
        providerId: "gemini",
        baseUrl,
        credential: { type: "oauth", providerId: "gemini", accessToken: "ya29", source: "store" },
      }).doStream(request),
    );
    expect(mock.requests.at(-1)!.headers.authorization).toBe("Bearer ya29");
  });
});
