import type { Credential } from "@nyzhi/auth";
import { errorFromHttpStatus } from "./error-from-http-status.js";
import { AbortedError, ProviderError } from "./provider-error.js";

export interface ErrorContext {
  providerId: string;
  credential?: Credential | undefined;
  signal?: AbortSignal | undefined;
  /** `stream`: some of the response had arrived, so a transport failure is an interrupted stream. */
  phase: "request" | "stream";
}

/**
 * Maps whatever a vendor SDK or `fetch` threw to a `ProviderError`. The Stainless SDKs
 * (`@anthropic-ai/sdk`, `openai`) share an error shape: `status`, `headers`, and the parsed body
 * as `error`; connection failures have no status.
 */
export function errorFromUnknown(error: unknown, context: ErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const { providerId } = context;
  if (context.signal?.aborted || isAbortLike(error)) return new AbortedError({ providerId, cause: error });
  const status = readStatus(error);
  if (status !== undefined) {
    return errorFromHttpStatus({
      providerId,
      status,
      body: (error as { error?: unknown }).error ?? (error as Error).message,
      headers: readHeaders(error),
      credential: context.credential,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SyntaxError) {
    return new ProviderError("invalid_response", `The response could not be parsed: ${message}`, {
      providerId,
      cause: error,
    });
  }
  if (context.phase === "stream") {
    return new ProviderError("stream_interrupted", `The response stream broke off: ${describeCause(error)}`, {
      providerId,
      cause: error,
    });
  }
  return new ProviderError("network_error", `Could not reach the provider: ${describeCause(error)}`, {
    providerId,
    cause: error,
  });
}

function isAbortLike(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const name = (error as { name?: unknown }).name;
  return name === "AbortError" || name === "APIUserAbortError";
}

function readStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" && status >= 400 ? status : undefined;
}

function readHeaders(error: unknown): { get(name: string): string | null } | undefined {
  const headers = (error as { headers?: unknown }).headers;
  if (headers && typeof (headers as { get?: unknown }).get === "function") {
    return headers as { get(name: string): string | null };
  }
  return undefined;
}

/** The error's message plus its cause's (undici hides the real reason in `cause`). */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) {
    return `${error.message} (${cause.message})`;
  }
  return error.message;
}
