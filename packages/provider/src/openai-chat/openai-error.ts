import type * as OpenAISdk from "openai";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import { errorFromUnknown } from "../errors/error-from-unknown.js";
import { ProviderError } from "../errors/provider-error.js";

/**
 * Maps an `openai` SDK failure to a `ProviderError`. An `error` object inside a 200 stream is
 * thrown by the SDK without a status; it is treated as a server error (retryable) unless its
 * code says otherwise.
 */
export function openaiError(error: unknown, context: ErrorContext): ProviderError {
  if (isStreamedApiError(error)) {
    const code = (error as { code?: unknown }).code;
    const message = `${context.providerId} stream error: ${(error as Error).message}`;
    const options = { providerId: context.providerId, cause: error };
    if (code === "rate_limit_exceeded") return new ProviderError("rate_limited", message, options);
    if (code === "context_length_exceeded") return new ProviderError("context_overflow", message, options);
    if (code === "invalid_request_error" || code === "invalid_prompt") {
      return new ProviderError("invalid_request", message, options);
    }
    return new ProviderError("server_error", message, options);
  }
  return errorFromUnknown(error, context);
}

let sdk: typeof OpenAISdk | undefined;

/** Records the loaded SDK module, whose error classes the mapping below checks against. */
export function rememberOpenAISdk(module: typeof OpenAISdk): void {
  sdk = module;
}

function isStreamedApiError(error: unknown): boolean {
  if (!sdk) return false;
  const { APIConnectionError, APIError, APIUserAbortError } = sdk;
  return (
    error instanceof APIError &&
    error.status === undefined &&
    !(error instanceof APIConnectionError) &&
    !(error instanceof APIUserAbortError)
  );
}
