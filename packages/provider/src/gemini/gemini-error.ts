import { errorFromHttpStatus } from "../errors/error-from-http-status.js";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import { errorFromUnknown } from "../errors/error-from-unknown.js";
import type { ProviderError } from "../errors/provider-error.js";

/** An HTTP error response from Gemini (`{ error: { code, message, status } }`) as a `ProviderError`. */
export async function geminiHttpError(response: Response, context: ErrorContext): Promise<ProviderError> {
  let body: unknown;
  try {
    const text = await response.text();
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  } catch (error) {
    body = undefined;
    if (context.signal?.aborted) return errorFromUnknown(error, context);
  }
  return errorFromHttpStatus({
    providerId: context.providerId,
    status: response.status,
    body,
    headers: response.headers,
    credential: context.credential,
  });
}

/** A thrown `fetch` or stream failure as a `ProviderError`. */
export function geminiError(error: unknown, context: ErrorContext): ProviderError {
  return errorFromUnknown(error, context);
}
