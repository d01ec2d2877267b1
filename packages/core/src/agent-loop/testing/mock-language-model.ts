import type { MockLlm } from "@nyzhi/mock-llm";
import { createLanguageModel, type LanguageModel } from "@nyzhi/provider";

/** A real adapter (real SDK client) talking to the scripted mock server, with a dummy API key. */
export function mockLanguageModel(
  mock: MockLlm,
  options: { providerId?: "anthropic" | "openai"; modelId?: string } = {},
): LanguageModel {
  const providerId = options.providerId ?? "anthropic";
  return createLanguageModel({
    providerId,
    modelId: options.modelId ?? "mock-model",
    credential: { type: "api-key", providerId, key: "test-key", source: "flag" },
    baseUrl: `${mock.url}/v1`,
  });
}
