export { AnthropicLanguageModel, type AnthropicModelSettings } from "./anthropic/anthropic-language-model.js";
export { ANTHROPIC_OAUTH_BETA } from "./anthropic/create-anthropic-client.js";
export {
  createStreamLimiter,
  exemptFromStreamLimit,
  type ReleaseSlot,
  type StreamLimiter,
  streamLimiterOf,
  withStreamLimit,
} from "./concurrency/with-stream-limit.js";
export {
  authFailureMessage,
  errorFromHttpStatus,
  extractErrorMessage,
} from "./errors/error-from-http-status.js";
export { parseRetryAfter, parseRetryAfterValue } from "./errors/parse-retry-after.js";
export {
  AbortedError,
  AuthError,
  isProviderError,
  isRetryableCode,
  ProviderError,
  type ProviderErrorCode,
  RateLimitError,
} from "./errors/provider-error.js";
export {
  type CreateLanguageModelOptions,
  createLanguageModel,
  type SupportedApiStyle,
} from "./factory/create-language-model.js";
export type { ProviderConfigView, ProviderEntryView } from "./factory/provider-config-view.js";
export { apiKeyEnvVar, providerDisplayName } from "./factory/provider-env-var.js";
export { resolveBaseUrl } from "./factory/resolve-base-url.js";
export { GeminiLanguageModel, type GeminiModelSettings } from "./gemini/gemini-language-model.js";
export { LightHeaders } from "./http/light-headers.js";
export { LightResponse, type LightResponseInit } from "./http/light-response.js";
export { nodeHttpFetch } from "./http/node-http-fetch.js";
export { webGlobalStub } from "./http/web-global-stub.js";
export type { LanguageModel, StreamOptions } from "./model/language-model.js";
export {
  type AssistantContentPart,
  type AssistantMessage,
  type ImagePart,
  type JsonSchema,
  type ModelMessage,
  type ModelRequest,
  type ProviderMetadata,
  type ReasoningPart,
  type SystemFragment,
  systemText,
  type TextPart,
  type ThinkingOptions,
  type ToolCallPart,
  type ToolDefinition,
  type ToolMessage,
  type ToolResultPart,
  type UserContentPart,
  type UserMessage,
} from "./model/model-request.js";
export type { FinishReason, StreamPart, StreamPartType } from "./model/stream-part.js";
export { addUsage, emptyUsage, subtractUsage, sumUsage, type Usage } from "./model/usage.js";
export {
  OpenAIChatLanguageModel,
  type OpenAIChatModelSettings,
} from "./openai-chat/openai-chat-language-model.js";
export {
  findOpenAICompatiblePreset,
  OPENAI_COMPATIBLE_PRESETS,
  type OpenAICompatiblePreset,
} from "./openai-compatible/openai-compatible-presets.js";
export {
  OpenAIResponsesLanguageModel,
  type OpenAIResponsesModelSettings,
} from "./openai-responses/openai-responses-language-model.js";
export { computeCost } from "./registry/compute-cost.js";
export { formatContextSize, formatModelTable } from "./registry/format-model-table.js";
export type { ModelInfo, ModelPricing, ModelTier, ThinkingSupport } from "./registry/model-info.js";
export {
  defaultModelId,
  findModel,
  listModels,
  modelForTier,
  type ThinkingLevelOption,
  thinkingLevelOptions,
} from "./registry/model-registry.js";
export { type ThinkingLevelChoice, thinkingForLevel, thinkingLevelsOf } from "./registry/thinking-levels.js";
export { abortableSleep, computeBackoff } from "./retry/compute-backoff.js";
export { type RetryEvent, type RetryOptions, withRetry } from "./retry/with-retry.js";
export { parseSseStream, type SseEvent, SseParser } from "./sse/parse-sse-stream.js";
export { type CollectedResponse, collectStream } from "./stream/collect-stream.js";
