import type { Readable } from "node:stream";

/**
 * A response body over a Node stream, handed out one of two ways: as the standard web
 * `ReadableStream` (`web()`, made when `Response.body` is first touched), or, to nyzhi's own event
 * stream readers, as the Node stream's chunks directly (`direct()`), which skips the web stream's
 * per-chunk promises, queue and reader machinery on every model response. Whichever is read first
 * owns the body: the web stream only starts reading on its first pull, so merely touching
 * `Response.body` (the Anthropic SDK does, to register it for clean-up) leaves `direct()`
 * available, and once `direct()` has taken the body a read of the web stream fails as a second
 * read of a `Response` body does.
 *
 * The source is watched from the start, read or not: a connection that closes before the response
 * is complete fails the body with `TypeError: terminated`, as `fetch` does, so a cut stream is never
 * mistaken for a finished one; a stream error (a corrupt compressed body) fails it; an abort
 * destroys the connection at once and fails the body with the signal's reason. The Node stream is
 * read in paused mode: each `read()` returns everything buffered since the last one, so the many
 * tiny pieces of a chunked SSE response that arrive in one socket read come out as one chunk.
 */
export interface NodeBody {
  /** The web stream; `onUse` is called when it is first read or cancelled (the body is "disturbed"). */
  web(onUse?: () => void): ReadableStream<Uint8Array>;
  /** The chunks, read directly; undefined when the web stream has already started reading. */
  direct(): AsyncIterable<Uint8Array> | undefined;
}

export function nodeBody(source: Readable, signal: AbortSignal | undefined): NodeBody {
  const chunks = new NodeChunkIterator(source, signal);
  let owner: "none" | "web" | "direct" = "none";
  return {
    web: (onUse = () => {}) =>
      new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            onUse();
            if (owner === "direct") throw new TypeError("Body is unusable: Body has already been read");
            owner = "web";
            const next = await chunks.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          async cancel() {
            onUse();
            // Cancelling this view of a body the direct reader owns must not cut that reader off.
            if (owner !== "direct") await chunks.return();
          },
        },
        // Nothing is read before a reader asks: until then `direct()` may still take the body.
        { highWaterMark: 0 },
      ),
    direct: () => {
      if (owner !== "none") return undefined;
      owner = "direct";
      return { [Symbol.asyncIterator]: () => chunks };
    },
  };
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

type Waiter = { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void };

class NodeChunkIterator implements AsyncIterator<Uint8Array> {
  #ended = false;
  #failure: { error: unknown } | undefined;
  readonly #waiting: Waiter[] = [];
  readonly #stopWatching: () => void;

  constructor(
    private readonly source: Readable,
    signal: AbortSignal | undefined,
  ) {
    const incoming = source as Readable & { complete?: boolean };
    const onAbort = () => {
      this.#fail(abortReason(signal as AbortSignal));
      source.destroy();
    };
    source.on("readable", () => this.#wake());
    source.on("end", () => {
      this.#ended = true;
      this.#stopWatching();
      this.#wake();
    });
    // As fetch: any failure of the body after its headers is `TypeError: terminated`, the cause
    // kept (a reset connection, a corrupt compressed body, the idle watchdog's error).
    source.on("error", (error: Error) => this.#fail(terminated(error)));
    source.on("close", () => {
      if (incoming.complete === false) this.#fail(terminated());
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    this.#stopWatching = () => signal?.removeEventListener("abort", onAbort);
    if (signal?.aborted) onAbort();
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#waiting.length === 0) {
      const ready = this.#poll();
      if (ready) return ready;
    }
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
    });
  }

  /** Stops reading: the connection is closed unless the body had ended, and pending reads end. */
  async return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.#ended && !this.#failure) {
      this.#failure = { error: new TypeError("Body is unusable: the body was closed") };
      this.#stopWatching();
      this.source.destroy();
    }
    for (const waiter of this.#waiting.splice(0)) waiter.resolve(DONE);
    return DONE;
  }

  #fail(error: unknown): void {
    if (this.#ended || this.#failure) return;
    this.#failure = { error };
    this.#stopWatching();
    this.#wake();
  }

  /** A settled result when one is ready: a chunk, the end, or the failure. */
  #poll(): Promise<IteratorResult<Uint8Array>> | undefined {
    if (this.#failure) return Promise.reject(this.#failure.error);
    const chunk = this.source.read() as Buffer | null;
    if (chunk !== null) return Promise.resolve({ value: asBytes(chunk), done: false });
    if (this.#ended) return Promise.resolve(DONE);
    return undefined;
  }

  #wake(): void {
    while (this.#waiting.length > 0) {
      const result = this.#poll();
      if (!result) return;
      const waiter = this.#waiting.shift() as Waiter;
      result.then(waiter.resolve, waiter.reject);
    }
  }
}

function asBytes(chunk: Buffer): Uint8Array {
  return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export function terminated(cause?: unknown): TypeError {
  return new TypeError("terminated", cause === undefined ? undefined : { cause });
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}
