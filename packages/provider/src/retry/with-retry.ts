import type { Credential } from "@nyzhi/auth";
import { getLogger } from "@nyzhi/config";
import { AbortedError, type ProviderError } from "../errors/provider-error.js";
import type { LanguageModel, StreamOptions } from "../model/language-model.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import { abortableSleep, computeBackoff } from "./compute-backoff.js";

/** Reported before each retry, for the UI's "retrying in 2s (1/3)" line. */
export interface RetryEvent {
  /** 1-based number of this retry. */
  attempt: number;
  maxRetries: number;
  /** ms until the retry starts. */
  waitMs: number;
  error: ProviderError;
  /** The retry goes out with another credential (`onRateLimited` supplied one). */
  rotated: boolean;
}

export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** ms. Default 1000. */
  initialBackoffMs?: number;
  /** ms. Default 30000. */
  maxBackoffMs?: number;
  /** A `Retry-After` longer than this (ms) is not waited for: the error surfaces. Default 120000. */
  maxRetryAfterMs?: number;
  onRetry?: (event: RetryEvent) => void;
  /** The credential the wrapped model uses; needed for rotation. */
  credential?: Credential;
  /** Builds the same model for another credential; needed for rotation. */
  createModel?: (credential: Credential) => LanguageModel;
  /**
   * Called on a 429 with the credential that was limited and the vendor's wait (ms). Return
   * another credential to retry with it at once (auth's multi-account rotation), or undefined
   * to wait and retry with the same one.
   */
  onRateLimited?: (
    credential: Credential,
    retryAfterMs: number | undefined,
  ) => Promise<Credential | undefined>;
  /**
   * Called once per request when the credential was rejected (401) — an OAuth token revoked or
   * expired during a long session. Return a refreshed credential to retry with it at once (and
   * keep using it), or undefined to let the error surface. Needs `createModel` and `credential`.
   */
  onAuthFailed?: (credential: Credential) => Promise<Credential | undefined>;
  /** Injected for tests. Must reject promptly when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injected for tests: a number in [0, 1). */
  random?: () => number;
}

/**
 * Wraps a model so retryable failures (429, 5xx, network errors, a stream that broke off) are
 * retried with exponential backoff and jitter, honouring `Retry-After`. Only failures before
 * any content reached the caller are retried — a retry restarts the whole response, so after
 * output has been yielded the error part is passed through instead of duplicating output (the
 * agent loop then retries its whole step, telling its consumers what to discard).
 * Leading `usage` parts are held back until content arrives, so they do not block a retry.
 * Aborts are never retried, and an abort during a backoff ends the stream at once.
 * On a 429 with `onRateLimited` and `createModel`, a credential it returns is used for this
 * retry and every later call.
 */
export function withRetry(model: LanguageModel, options: RetryOptions = {}): LanguageModel {
  return new RetryingLanguageModel(model, options);
}

class RetryingLanguageModel implements LanguageModel {
  readonly providerId: string;
  readonly modelId: string;
  private current: LanguageModel;
  private credential: Credential | undefined;

  constructor(
    model: LanguageModel,
    private readonly options: RetryOptions,
  ) {
    this.providerId = model.providerId;
    this.modelId = model.modelId;
    this.current = model;
    this.credential = options.credential;
  }

  async *doStream(request: ModelRequest, streamOptions: StreamOptions = {}): AsyncGenerator<StreamPart> {
    const { signal } = streamOptions;
    const maxRetries = this.options.maxRetries ?? 3;
    let authRefreshed = false;
    for (let attempt = 0; ; attempt++) {
      const held: StreamPart[] = [];
      let forwarded = false;
      let failure: ProviderError | undefined;
      for await (const part of this.current.doStream(request, streamOptions)) {
        if (part.type === "error") {
          failure = part.error;
          break;
        }
        if (!forwarded) {
          if (part.type === "usage") {
            held.push(part);
            continue;
          }
          forwarded = true;
          yield* held;
          held.length = 0;
        }
        yield part;
      }
      if (!failure) {
        yield* held;
        return;
      }
      if (!forwarded && !authRefreshed && failure.code === "auth_failed" && (await this.refresh())) {
        // A refreshed credential is retried at once and does not count as a retry.
        authRefreshed = true;
        attempt--;
        continue;
      }
      const retry =
        forwarded || attempt >= maxRetries ? undefined : await this.planRetry(failure, attempt + 1, signal);
      if (!retry) {
        yield { type: "error", error: failure };
        return;
      }
      this.options.onRetry?.({ ...retry, maxRetries, error: failure });
      yield { type: "retry", ...retry, maxRetries, error: failure };
      try {
        await (this.options.sleep ?? abortableSleep)(retry.waitMs, signal);
      } catch (error) {
        yield { type: "error", error: new AbortedError({ providerId: this.providerId, cause: error }) };
        return;
      }
    }
  }

  /** How to retry `failure`, or undefined when it should surface. Rotates the credential on 429. */
  private async planRetry(
    failure: ProviderError,
    attempt: number,
    signal: AbortSignal | undefined,
  ): Promise<{ attempt: number; waitMs: number; rotated: boolean } | undefined> {
    if (!failure.retryable || failure.code === "aborted" || signal?.aborted) return undefined;
    if (failure.code === "rate_limited" && (await this.rotate(failure))) {
      return { attempt, waitMs: 0, rotated: true };
    }
    const maxRetryAfterMs = this.options.maxRetryAfterMs ?? 120_000;
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxRetryAfterMs) return undefined;
    const waitMs = computeBackoff(attempt, failure.retryAfterMs, {
      initialBackoffMs: this.options.initialBackoffMs ?? 1000,
      maxBackoffMs: this.options.maxBackoffMs ?? 30_000,
      ...(this.options.random ? { random: this.options.random } : {}),
    });
    return { attempt, waitMs, rotated: false };
  }

  /** Swaps in the credential `onAuthFailed` returns; false when there is none. */
  private async refresh(): Promise<boolean> {
    const { onAuthFailed, createModel } = this.options;
    if (!onAuthFailed || !createModel || !this.credential) return false;
    try {
      const next = await onAuthFailed(this.credential);
      if (!next) return false;
      this.current = createModel(next);
      this.credential = next;
      return true;
    } catch (error) {
      getLogger().warn({ err: error, providerId: this.providerId }, "credential refresh after a 401 failed");
      return false;
    }
  }

  private async rotate(failure: ProviderError): Promise<boolean> {
    const { onRateLimited, createModel } = this.options;
    if (!onRateLimited || !createModel || !this.credential) return false;
    try {
      const next = await onRateLimited(this.credential, failure.retryAfterMs);
      if (!next) return false;
      this.current = createModel(next);
      this.credential = next;
      return true;
    } catch (error) {
      getLogger().warn(
        { err: error, providerId: this.providerId },
        "credential rotation failed; retrying as is",
      );
      return false;
    }
  }
}
