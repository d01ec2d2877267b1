import type { Credential } from "@nyzhi/auth";
import { apiKeyEnvVar, providerDisplayName } from "../factory/provider-env-var.js";
import { parseRetryAfter } from "./parse-retry-after.js";
import { AuthError, ProviderError, RateLimitError } from "./provider-error.js";

export interface HttpFailure {
  providerId: string;
  status: number;
  /** The response body: parsed JSON, text, or undefined. */
  body: unknown;
  headers?: { get(name: string): string | null } | undefined;
  /** The credential that was sent, so an auth error can say what to fix. */
  credential?: Credential | undefined;
  cause?: unknown;
}

const CONTEXT_OVERFLOW =
  /context[ _-]length|context window|prompt is too long|maximum context|too many tokens|context_length_exceeded|exceeds the context/i;

/** Maps an HTTP error response to a typed `ProviderError` (spec edges §3.7, plus the auth hint). */
export function errorFromHttpStatus(failure: HttpFailure): ProviderError {
  const { providerId, status } = failure;
  const detail = extractErrorMessage(failure.body);
  const base = { providerId, status, cause: failure.cause };
  const summary = detail ? `${status}: ${detail}` : `HTTP ${status}`;
  if (status === 401) {
    return new AuthError(authFailureMessage(providerId, summary, failure.credential), base);
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(failure.headers);
    const options = retryAfterMs === undefined ? base : { ...base, retryAfterMs };
    return new RateLimitError(`${providerDisplayName(providerId)} rate limit (${summary}).`, options);
  }
  if (status >= 500) {
    const retryAfterMs = parseRetryAfter(failure.headers);
    const options = retryAfterMs === undefined ? base : { ...base, retryAfterMs };
    return new ProviderError(
      "server_error",
      `${providerDisplayName(providerId)} server error (${summary}).`,
      options,
    );
  }
  if ((status === 400 || status === 413) && CONTEXT_OVERFLOW.test(detail)) {
    return new ProviderError(
      "context_overflow",
      `The prompt does not fit the model's context (${summary}).`,
      base,
    );
  }
  return new ProviderError(
    "invalid_request",
    `${providerDisplayName(providerId)} rejected the request (${summary}).`,
    base,
  );
}

/** The user-facing text of a 401: what was rejected and how to supply a working credential. */
export function authFailureMessage(providerId: string, summary: string, credential?: Credential): string {
  const name = providerDisplayName(providerId);
  const envVar = apiKeyEnvVar(providerId);
  const login = `\`nyz login ${providerId}\``;
  if (credential?.type === "oauth") {
    return `${name} rejected the OAuth token (${summary}). Run ${login} to sign in again, or set ${envVar}.`;
  }
  const from =
    credential?.type === "api-key" && credential.source === "env"
      ? ` from ${credential.envVar ?? envVar}`
      : "";
  return `${name} rejected the API key${from} (${summary}). Set ${envVar} to a valid key, or run ${login}.`;
}

/**
 * The vendor's message from an error body: JSON `error.message`, `message`, `error` (string),
 * else the trimmed text (first 200 characters + "...").
 */
export function extractErrorMessage(body: unknown): string {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return extractFromText(body);
  if (typeof body !== "object") return String(body);
  const record = body as Record<string, unknown>;
  const error = record.error;
  if (error && typeof error === "object") {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === "string") return message;
  }
  if (typeof record.message === "string") return record.message;
  if (typeof error === "string") return error;
  return truncate(JSON.stringify(body));
}

function extractFromText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return extractErrorMessage(JSON.parse(trimmed) as unknown);
    } catch {
      // not JSON after all: fall through to the raw text
    }
  }
  return truncate(trimmed);
}

function truncate(text: string): string {
  const characters = Array.from(text);
  return characters.length > 200 ? `${characters.slice(0, 200).join("")}...` : text;
}
