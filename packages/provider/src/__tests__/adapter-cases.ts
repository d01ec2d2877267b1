import type { Credential } from "@nyzhi/auth";
import type { WireApi } from "@nyzhi/mock-llm";
import { createLanguageModel } from "../factory/create-language-model.js";
import type { LanguageModel } from "../model/language-model.js";
import type { Usage } from "../model/usage.js";

/** One adapter as the conformance tests drive it: built through the factory, against the mock. */
export interface AdapterCase {
  name: string;
  api: WireApi;
  providerId: string;
  envVar: string;
  /** Whether the wire format streams tool-call arguments in pieces (Gemini sends calls whole). */
  splitsToolArguments: boolean;
  /** What the adapter reports for mock usage `{ inputTokens: 100, outputTokens: 20, cacheReadTokens: 30 }`. */
  expectedUsage: Usage;
  create(mockUrl: string, credential?: Credential): LanguageModel;
}

export function apiKey(providerId: string, key = "test-key"): Credential {
  return { type: "api-key", providerId, key, source: "env" };
}

const OPENAI_USAGE: Usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 0 };

export const ADAPTER_CASES: AdapterCase[] = [
  {
    name: "anthropic",
    api: "anthropic",
    providerId: "anthropic",
    envVar: "ANTHROPIC_API_KEY",
    splitsToolArguments: true,
    // Anthropic's input_tokens excludes cache reads; the adapter adds them back.
    expectedUsage: { inputTokens: 130, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 0 },
    create: (url, credential = apiKey("anthropic")) =>
      createLanguageModel({
        providerId: "anthropic",
        modelId: "claude-haiku-4-5-20251022",
        credential,
        baseUrl: url,
      }),
  },
  {
    name: "openai-chat",
    api: "openai-chat",
    providerId: "openai",
    envVar: "OPENAI_API_KEY",
    splitsToolArguments: true,
    expectedUsage: OPENAI_USAGE,
    create: (url, credential = apiKey("openai")) =>
      createLanguageModel({ providerId: "openai", modelId: "gpt-5.2", credential, baseUrl: `${url}/v1` }),
  },
  {
    name: "openai-responses",
    api: "openai-responses",
    providerId: "openai",
    envVar: "OPENAI_API_KEY",
    splitsToolArguments: true,
    expectedUsage: OPENAI_USAGE,
    create: (url, credential = apiKey("openai")) =>
      createLanguageModel({
        providerId: "openai",
        modelId: "gpt-5.2",
        credential,
        config: { provider: { openai: { api_style: "openai-responses", base_url: `${url}/v1` } } },
      }),
  },
  {
    name: "gemini",
    api: "gemini",
    providerId: "gemini",
    envVar: "GEMINI_API_KEY",
    splitsToolArguments: false,
    expectedUsage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 0 },
    create: (url, credential = apiKey("gemini")) =>
      createLanguageModel({
        providerId: "gemini",
        modelId: "gemini-3-flash",
        credential,
        baseUrl: `${url}/v1beta`,
      }),
  },
  {
    name: "groq (openai-compatible preset, base URL from GROQ_BASE_URL)",
    api: "openai-chat",
    providerId: "groq",
    envVar: "GROQ_API_KEY",
    splitsToolArguments: true,
    expectedUsage: OPENAI_USAGE,
    create: (url, credential = apiKey("groq")) =>
      createLanguageModel({ providerId: "groq", credential, env: { GROQ_BASE_URL: `${url}/v1` } }),
  },
];
