import { AbortedError } from "../errors/provider-error.js";
import type { LanguageModel, StreamOptions } from "../model/language-model.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";

/** Releases a held slot; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

/**
 * A counting semaphore for model streams, shared by every model of one runtime (the lead and all
 * its subagents). Waiters are served first come, first served, so a burst of subagents cannot
 * starve the lead or each other.
 */
export interface StreamLimiter {
  /** Streams that may be open at once. */
  readonly maxConcurrent: number;
  /** Streams open now. */
  readonly active: number;
  /** Requests waiting for a slot now. */
  readonly queued: number;
  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  reject: (error: unknown) => void;
}

/** A FIFO stream limiter allowing `maxConcurrent` (at least 1) open streams. */
export function createStreamLimiter(maxConcurrent: number): StreamLimiter {
  const limit = Math.max(1, Math.floor(maxConcurrent));
  const waiters: Waiter[] = [];
  let active = 0;

  const makeRelease = (): ReleaseSlot => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiters.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next.grant(makeRelease());
      else active -= 1;
    };
  };

  return {
    maxConcurrent: limit,
    get active() {
      return active;
    },
    get queued() {
      return waiters.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
      if (active < limit) {
        active += 1;
        return Promise.resolve(makeRelease());
      }
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason ?? new Error("aborted"));
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(release);
          },
          reject,
        };
        waiters.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}

const LIMITER = Symbol("nyzhi.streamLimiter");

/** The limiter a model was wrapped with by `withStreamLimit`, if any. */
export function streamLimiterOf(model: LanguageModel): StreamLimiter | undefined {
  return (model as { [LIMITER]?: StreamLimiter })[LIMITER];
}

/**
 * Wraps a model so each `doStream` holds a slot of `limiter` from before the request is sent until
 * the stream ends — finished, failed, aborted, or abandoned by the caller (an early `return` from
 * `for await`). Requests beyond the limit wait in line instead of failing; a request aborted while
 * waiting ends with an `aborted` error part, like any aborted stream. Wrapping a model that is
 * already limited by the same limiter returns it unchanged (a nested wait would deadlock).
 */
export function withStreamLimit(model: LanguageModel, limiter: StreamLimiter): LanguageModel {
  if (streamLimiterOf(model) === limiter) return model;
  return new StreamLimitedLanguageModel(model, limiter);
}

/**
 * A view of `model` whose requests pass every stream limiter inside it (retries, rotation and the
 * rest stay): subagents share their parent's model this way without counting against the
 * top-level stream cap.
 */
export function exemptFromStreamLimit(model: LanguageModel): LanguageModel {
  if (model instanceof ExemptLanguageModel) return model;
  return new ExemptLanguageModel(model);
}

class ExemptLanguageModel implements LanguageModel {
  readonly providerId: string;
  readonly modelId: string;

  constructor(private readonly inner: LanguageModel) {
    this.providerId = inner.providerId;
    this.modelId = inner.modelId;
  }

  doStream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<StreamPart> {
    return this.inner.doStream(request, { ...options, exemptFromStreamLimit: true });
  }
}

class StreamLimitedLanguageModel implements LanguageModel {
  readonly providerId: string;
  readonly modelId: string;
  readonly [LIMITER]: StreamLimiter;

  constructor(
    private readonly inner: LanguageModel,
    limiter: StreamLimiter,
  ) {
    this.providerId = inner.providerId;
    this.modelId = inner.modelId;
    this[LIMITER] = limiter;
  }

  async *doStream(request: ModelRequest, options: StreamOptions = {}): AsyncGenerator<StreamPart> {
    if (options.exemptFromStreamLimit) {
      yield* this.inner.doStream(request, options);
      return;
    }
    let release: ReleaseSlot;
    try {
      release = await this[LIMITER].acquire(options.signal);
    } catch (error) {
      yield { type: "error", error: new AbortedError({ providerId: this.providerId, cause: error }) };
      return;
    }
    try {
      yield* this.inner.doStream(request, options);
    } finally {
      release();
    }
  }
}
