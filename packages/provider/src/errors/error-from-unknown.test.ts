import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { AnthropicLanguageModel } from "../anthropic/anthropic-language-model.js";
import { GeminiLanguageModel } from "../gemini/gemini-language-model.js";
import type { LanguageModel } from "../model/language-model.js";
import { OpenAIChatLanguageModel } from "../openai-chat/openai-chat-language-model.js";
import { OpenAIResponsesLanguageModel } from "../openai-responses/openai-responses-language-model.js";
import { collectStream } from "../stream/collect-stream.js";
import { errorFromUnknown } from "./error-from-unknown.js";

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const request = { messages: [{ role: "user" as const, content: "hi" }] };

describe("a provider that cannot be reached", () => {
  it("names the base URL, the socket's reason and the setting to fix, for every adapter", async () => {
    const port = await closedPort();
    const credential = { type: "api-key" as const, providerId: "x", key: "k", source: "env" as const };
    const common = { modelId: "m", credential };
    const models: [LanguageModel, string, string][] = [
      [
        new AnthropicLanguageModel({
          ...common,
          providerId: "anthropic",
          baseUrl: `http://127.0.0.1:${port}`,
        }),
        `Could not reach Anthropic at http://127.0.0.1:${port}: `,
        "(provider.anthropic.base_url or ANTHROPIC_BASE_URL)",
      ],
      [
        new OpenAIChatLanguageModel({
          ...common,
          providerId: "openai",
          baseUrl: `http://127.0.0.1:${port}/v1`,
        }),
        `Could not reach OpenAI at http://127.0.0.1:${port}/v1: `,
        "(provider.openai.base_url or OPENAI_BASE_URL)",
      ],
      [
        new OpenAIResponsesLanguageModel({
          ...common,
          providerId: "my-llm",
          baseUrl: `http://user:secret@127.0.0.1:${port}/v1?key=secret`,
        }),
        `Could not reach my-llm at http://127.0.0.1:${port}/v1: `,
        "(provider.my-llm.base_url or MY_LLM_BASE_URL)",
      ],
      [
        new GeminiLanguageModel({
          ...common,
          providerId: "gemini",
          baseUrl: `http://127.0.0.1:${port}/v1beta`,
        }),
        `Could not reach Google Gemini at http://127.0.0.1:${port}/v1beta: `,
        "(provider.gemini.base_url or GEMINI_BASE_URL)",
      ],
    ];
    for (const [model, opening, setting] of models) {
      const { error } = await collectStream(model.doStream(request));
      expect(error?.code).toBe("network_error");
      expect(error?.message.startsWith(opening)).toBe(true);
      expect(error?.message).toContain(`connect ECONNREFUSED 127.0.0.1:${port}`);
      expect(error?.message).toContain(setting);
      expect(error?.message).not.toContain("secret");
    }
  });

  it("reads the reason from an innermost error without a message (Node's AggregateError)", () => {
    const refused = Object.assign(new AggregateError([new Error("connect ECONNREFUSED ::1:9")], ""), {
      code: "ECONNREFUSED",
    });
    const wrapped = new Error("Connection error.", {
      cause: new TypeError("fetch failed", { cause: refused }),
    });
    const error = errorFromUnknown(wrapped, { providerId: "ollama", phase: "request" });
    expect(error.message).toBe("Could not reach Ollama (local): connect ECONNREFUSED ::1:9");
  });
});
