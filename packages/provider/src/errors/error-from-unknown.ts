import type { Credential } from "@nyzhi/auth";
import { baseUrlEnvVar, providerDisplayName } from "../factory/provider-env-var.js";
import { errorFromHttpStatus } from "./error-from-http-status.js";
import { AbortedError, ProviderError } from "./provider-error.js";

export interface ErrorContext {
  providerId: string;
  credential?: Credential | undefined;
  signal?: AbortSignal | undefined;
  /** `stream`: some of the response had arrived, so a transport failure is an interrupted stream. */
  phase: "request" | "stream";
  /** Where the request went, named when the provider cannot be reached. */
  baseUrl?: string | undefined;
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
  return new ProviderError("network_error", unreachableMessage(error, context), { providerId, cause: error });
}

/**
 * "Could not reach Anthropic at http://127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9. Check …": the
 * provider, where the request went, and the socket's own reason, with the setting to fix.
 */
function unreachableMessage(error: unknown, context: ErrorContext): string {
  const { providerId } = context;
  const name = providerDisplayName(providerId);
  const where = context.baseUrl ? displayUrl(context.baseUrl) : undefined;
  if (!where) return `Could not reach ${name}: ${describeCause(error)}`;
  return `Could not reach ${name} at ${where}: ${describeCause(error)}. Check the network, or the base URL (provider.${providerId}.base_url or ${baseUrlEnvVar(providerId)}).`;
}

/** The URL without credentials, query or fragment (a key can sit in either). */
function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return baseUrl;
  }
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

/**
 * The innermost cause's message and code: the SDKs wrap it twice ("Connection error." around
 * "fetch failed" around "connect ECONNREFUSED 127.0.0.1:9"), and only the innermost says why.
 */
function describeCause(error: unknown): string {
  let innermost = error;
  for (let depth = 0; depth < 8 && innermost instanceof Error && innermost.cause !== undefined; depth++) {
    innermost = innermost.cause;
  }
  const outer = error instanceof Error ? error.message : String(error);
  if (!(innermost instanceof Error)) return innermost === error ? outer : `${outer} (${String(innermost)})`;
  let message = innermost.message;
  // Node's connect to a name with several addresses fails with an empty AggregateError.
  if (!message && innermost instanceof AggregateError) {
    message = innermost.errors
      .map((each) => (each instanceof Error ? each.message : String(each)))
      .join(", ");
  }
  const code = (innermost as { code?: unknown }).code;
  if (typeof code === "string" && !message.includes(code)) message = message ? `${message} (${code})` : code;
  return message || outer;
}
