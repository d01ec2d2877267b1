import { BUILT_IN_PROVIDERS } from "@nyzhi/config";

/**
 * What an OpenAI-compatible provider needs beyond its base URL and key: extra headers and the
 * body field for the output-token limit. Built from `BUILT_IN_PROVIDERS` (every `openai`-style
 * id), so adding a provider to the table gives it a preset.
 */
export interface OpenAICompatiblePreset {
  providerId: string;
  defaultBaseUrl: string;
  /** The environment variable holding its API key. */
  envVar: string;
  /** The environment variable overriding its base URL, when it has one. */
  baseUrlEnvVar?: string;
  headers?: Record<string, string>;
  maxTokensField: "max_tokens" | "max_completion_tokens";
}

/** Per-provider differences from the plain Chat Completions dialect. */
const OVERRIDES: Record<string, Partial<OpenAICompatiblePreset>> = {
  // OpenAI's reasoning models reject `max_tokens`.
  openai: { maxTokensField: "max_completion_tokens" },
  // OpenRouter attributes traffic to the app through these two headers.
  openrouter: { headers: { "HTTP-Referer": "https://github.com/nyzhi/code", "X-Title": "nyzhi" } },
};

export const OPENAI_COMPATIBLE_PRESETS: readonly OpenAICompatiblePreset[] = BUILT_IN_PROVIDERS.filter(
  (provider) => provider.apiStyle === "openai",
).map((provider) => ({
  providerId: provider.id,
  defaultBaseUrl: provider.defaultBaseUrl,
  envVar: provider.envVar,
  ...(provider.baseUrlEnvVar ? { baseUrlEnvVar: provider.baseUrlEnvVar } : {}),
  maxTokensField: "max_tokens" as const,
  ...OVERRIDES[provider.id],
}));

export function findOpenAICompatiblePreset(providerId: string): OpenAICompatiblePreset | undefined {
  return OPENAI_COMPATIBLE_PRESETS.find((preset) => preset.providerId === providerId);
}
