import type { ErrorContext } from "../errors/error-from-unknown.js";
import { errorFromUnknown } from "../errors/error-from-unknown.js";
import { ProviderError, RateLimitError } from "../errors/provider-error.js";

/**
 * Maps an Anthropic SDK failure to a `ProviderError`. Besides HTTP statuses, Anthropic can send
 * an `error` event inside a 200 stream (`overloaded_error`, `rate_limit_error`, `api_error`),
 * which the SDK throws without a status.
 */
export function anthropicError(error: unknown, context: ErrorContext): ProviderError {
  const streamed = streamedErrorType(error);
  if (streamed) {
    const message = `Anthropic stream error: ${(error as Error).message}`;
    const options = { providerId: context.providerId, cause: error };
    if (streamed === "rate_limit_error") return new RateLimitError(message, options);
    if (streamed === "overloaded_error" || streamed === "api_error") {
      return new ProviderError("server_error", message, options);
    }
    return new ProviderError("invalid_request", message, options);
  }
  return errorFromUnknown(error, context);
}

function streamedErrorType(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  return status === undefined && typeof type === "string" ? type : undefined;
}
