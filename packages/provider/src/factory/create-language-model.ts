import type { Credential } from "@nyzhi/auth";
import { findBuiltInProvider, NyzhiError } from "@nyzhi/config";
import { AnthropicLanguageModel } from "../anthropic/anthropic-language-model.js";
import { GeminiLanguageModel } from "../gemini/gemini-language-model.js";
import type { LanguageModel } from "../model/language-model.js";
import { OpenAIChatLanguageModel } from "../openai-chat/openai-chat-language-model.js";
import { findOpenAICompatiblePreset } from "../openai-compatible/openai-compatible-presets.js";
import { OpenAIResponsesLanguageModel } from "../openai-responses/openai-responses-language-model.js";
import { defaultModelId } from "../registry/model-registry.js";
import { configuredApiStyle, configuredModel, type ProviderConfigView } from "./provider-config-view.js";
import { anthropicSdkBaseUrl, resolveBaseUrl } from "./resolve-base-url.js";

export interface CreateLanguageModelOptions {
  providerId: string;
  /** Default: config `provider.<id>.model`, else the provider's default model. */
  modelId?: string | undefined;
  /** Omit only for servers that need no key (a local Ollama). */
  credential?: Credential | undefined;
  /** Overrides config and environment (see `resolveBaseUrl`). */
  baseUrl?: string | undefined;
  config?: ProviderConfigView | undefined;
  /** Environment for base-URL variables. Default `process.env`. */
  env?: Record<string, string | undefined> | undefined;
  /** A `fetch` for every request (tests, proxies, recording). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
}

/** The wire formats the factory can build. `cursor` and `copilot` are not implemented here. */
export type SupportedApiStyle =
  | "openai"
  | "openai-responses"
  | "anthropic"
  | "gemini"
  | "claude-sdk"
  | "codex";

/**
 * Builds the model for a provider (spec edges §3.3): the api style comes from config
 * `provider.<id>.api_style`, else the built-in table, else `openai` (so unknown ids speak
 * OpenAI Chat). `claude-sdk` and `codex` reuse the Anthropic and OpenAI adapters with those
 * providers' base URLs. Throws a `NyzhiError` (`unsupported_api_style`, `no_model`, `no_base_url`).
 */
export function createLanguageModel(options: CreateLanguageModelOptions): LanguageModel {
  const { providerId } = options;
  const apiStyle =
    configuredApiStyle(options.config, providerId) ?? findBuiltInProvider(providerId)?.apiStyle ?? "openai";
  const modelId =
    options.modelId || configuredModel(options.config, providerId) || defaultModelId(providerId);
  if (!modelId) {
    throw new NyzhiError(
      "no_model",
      `No model given for provider '${providerId}'. Pass --model or set provider.${providerId}.model in config.`,
    );
  }
  const common = {
    providerId,
    modelId,
    credential: options.credential,
    fetch: options.fetch,
    headers: options.headers,
  };
  switch (apiStyle) {
    case "anthropic":
    case "claude-sdk":
      return new AnthropicLanguageModel({
        ...common,
        baseUrl: anthropicSdkBaseUrl(
          baseUrlFor(options, apiStyle === "claude-sdk" ? "anthropic" : providerId),
        ),
      });
    case "gemini":
      return new GeminiLanguageModel({ ...common, baseUrl: baseUrlFor(options, providerId) });
    case "openai-responses":
    case "codex":
      return new OpenAIResponsesLanguageModel({
        ...common,
        baseUrl: baseUrlFor(options, apiStyle === "codex" ? "openai" : providerId),
      });
    case "openai": {
      const preset = findOpenAICompatiblePreset(providerId);
      return new OpenAIChatLanguageModel({
        ...common,
        baseUrl: baseUrlFor(options, providerId),
        headers: { ...preset?.headers, ...options.headers },
        maxTokensField: preset?.maxTokensField ?? "max_tokens",
      });
    }
    default:
      throw new NyzhiError(
        "unsupported_api_style",
        `Unsupported api_style '${apiStyle}' for provider '${providerId}'. Use one of: openai, openai-responses, anthropic, gemini.`,
      );
  }
}

/**
 * The base URL, falling back to `fallbackId`'s settings (claude-sdk → anthropic, codex → openai)
 * and, for unknown ids, to OpenAI's URL as the Rust port does.
 */
function baseUrlFor(options: CreateLanguageModelOptions, fallbackId: string): string {
  const { providerId } = options;
  const resolved =
    resolveBaseUrl(options) ??
    (fallbackId === providerId
      ? undefined
      : resolveBaseUrl({ ...options, providerId: fallbackId, baseUrl: undefined })) ??
    findBuiltInProvider("openai")?.defaultBaseUrl;
  if (!resolved) {
    throw new NyzhiError(
      "no_base_url",
      `No base URL for provider '${providerId}'. Set provider.${providerId}.base_url.`,
    );
  }
  return resolved;
}
