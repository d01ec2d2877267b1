import type { ErrorContext } from "../errors/error-from-unknown.js";
import { ProviderError } from "../errors/provider-error.js";

/**
 * Maps an in-stream failure (`error` event or `response.failed`) to a `ProviderError`.
 * Rate limits and server errors stay retryable; anything else is an invalid request.
 */
export function openaiResponsesStreamError(
  failure: { code?: string | null | undefined; message?: string | null | undefined } | null | undefined,
  context: Pick<ErrorContext, "providerId">,
): ProviderError {
  const code = failure?.code ?? "";
  const message = `${context.providerId} response failed${code ? ` (${code})` : ""}: ${failure?.message ?? "no message"}`;
  const options = { providerId: context.providerId };
  if (code === "rate_limit_exceeded") return new ProviderError("rate_limited", message, options);
  if (code === "server_error" || code === "" || code === "server_is_overloaded") {
    return new ProviderError("server_error", message, options);
  }
  if (code === "context_length_exceeded") return new ProviderError("context_overflow", message, options);
  return new ProviderError("invalid_request", message, options);
}
