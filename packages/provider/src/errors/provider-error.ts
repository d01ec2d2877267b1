import { NyzhiError } from "@nyzhi/config";

/**
 * Stable codes for provider failures, so hosts can react without parsing messages:
 * - `auth_failed`: 401, the credential was rejected (the message says which env var or login to use)
 * - `rate_limited`: 429; `retryAfterMs` when the vendor said how long to wait
 * - `server_error`: 5xx or 529 overloaded
 * - `network_error`: the request never got a response (DNS, refused, reset, timeout)
 * - `stream_interrupted`: the response stream broke off before the vendor finished it
 * - `aborted`: the caller's `AbortSignal` fired
 * - `context_overflow`: the prompt does not fit the model's context window
 * - `invalid_request`: any other 4xx
 * - `invalid_response`: the vendor sent something unparsable
 */
export type ProviderErrorCode =
  | "auth_failed"
  | "rate_limited"
  | "server_error"
  | "network_error"
  | "stream_interrupted"
  | "aborted"
  | "context_overflow"
  | "invalid_request"
  | "invalid_response";

export interface ProviderErrorOptions {
  providerId: string;
  /** HTTP status, when there was a response. */
  status?: number;
  /** Whether trying the same request again may succeed. Default: by code (see `isRetryableCode`). */
  retryable?: boolean;
  /** How long the vendor asked us to wait before retrying, ms (from `Retry-After`). */
  retryAfterMs?: number;
  cause?: unknown;
}

const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  "rate_limited",
  "server_error",
  "network_error",
  "stream_interrupted",
]);

/** Whether errors with this code are worth retrying by default. */
export function isRetryableCode(code: ProviderErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}

/** Any failure of a model call. Subclasses exist for the codes a host most often branches on. */
export class ProviderError extends NyzhiError {
  declare readonly code: ProviderErrorCode;
  readonly providerId: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.providerId = options.providerId;
    this.status = options.status;
    this.retryable = options.retryable ?? isRetryableCode(code);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** 401: the credential was rejected. The message names the env var and the `nyz login` command. */
export class AuthError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super("auth_failed", message, { ...options, retryable: false });
  }
}

/** 429. `retryAfterMs` is set when the vendor sent `Retry-After` / `retry-after-ms`. */
export class RateLimitError extends ProviderError {
  constructor(message: string, options: ProviderErrorOptions) {
    super("rate_limited", message, { ...options, retryable: true });
  }
}

/** The caller aborted the call. Never retried. */
export class AbortedError extends ProviderError {
  constructor(options: ProviderErrorOptions) {
    super("aborted", "The model request was aborted.", { ...options, retryable: false });
  }
}

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
