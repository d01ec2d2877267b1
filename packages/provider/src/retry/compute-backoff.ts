export interface BackoffOptions {
  /** ms before the first retry. */
  initialBackoffMs: number;
  /** ms; the exponential wait never exceeds this. */
  maxBackoffMs: number;
  /** A number in [0, 1); `Math.random` by default. */
  random?: () => number;
}

/**
 * The wait before retry number `attempt` (1-based), ms: the vendor's `Retry-After` when given,
 * exactly; otherwise `initial · 2^(attempt−1)` capped at `maxBackoffMs`, with "equal jitter"
 * (between half and all of it) so clients that failed together do not retry together.
 */
export function computeBackoff(
  attempt: number,
  retryAfterMs: number | undefined,
  options: BackoffOptions,
): number {
  if (retryAfterMs !== undefined) return Math.max(0, retryAfterMs);
  const exponential = Math.min(
    options.maxBackoffMs,
    options.initialBackoffMs * 2 ** Math.max(0, attempt - 1),
  );
  const random = options.random ?? Math.random;
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
