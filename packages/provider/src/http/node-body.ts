import type { Readable } from "node:stream";

/**
 * A response body over a Node stream, handed out one of two ways: as the standard web
 * `ReadableStream` (`web()`, made when `Response.body` is first touched), or, to nyzhi's own event
 * stream readers, as the Node stream's chunks directly (`direct()`), which skips the web stream's
 * per-chunk promises, queue and reader machinery on every model response. Whichever is read first
 * owns the body: the web stream only starts reading the Node stream on its first pull, so merely
 * touching `Response.body` (the Anthropic SDK does, to register it for clean-up) leaves `direct()`
 * available, and once `direct()` has taken the body a read of the web stream fails as a second
 * read of a `Response` body does.
 *
 * Both read the Node stream in paused mode: each `read()` returns everything buffered since the
 * last one, so the many tiny pieces of a chunked SSE response that arrive in one socket read come
 * out as one chunk. A connection that closes before the response is complete fails the read with
 * `TypeError: terminated`, as `fetch` does, so a cut stream is never mistaken for a finished one;
 * an abort fails it with the signal's reason.
 */
export interface NodeBody {
  web(): ReadableStream<Uint8Array>;
  /** The chunks, read directly; undefined when the web stream has already started reading. */
  direct(): AsyncIterable<Uint8Array> | undefined;
}

export function nodeBody(source: Readable, signal: AbortSignal | undefined): NodeBody {
  let owner: "none" | "web" | "direct" = "none";
  return {
    web: () =>
      webStream(source, signal, () => {
        if (owner === "direct") return false;
        owner = "web";
        return true;
      }),
    direct: () => {
      if (owner !== "none") return undefined;
      owner = "direct";
      return { [Symbol.asyncIterator]: () => new NodeChunkIterator(source, signal) };
    },
  };
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

interface SourceWatch {
  /** Stops watching (listeners and the abort signal). */
  stop(): void;
}

/**
 * Calls `onChange` when the source may have more to read or has ended, and `onFail` once for a
 * failure: an error (a socket `aborted` is reported as `terminated`), a close before the
 * response was complete, or the signal's abort (which also destroys the source).
 */
function watchSource(
  source: Readable,
  signal: AbortSignal | undefined,
  handlers: { onChange: () => void; onEnd: () => void; onFail: (error: unknown) => void },
): SourceWatch {
  const incoming = source as Readable & { complete?: boolean };
  const onAbort = () => {
    handlers.onFail(abortReason(signal as AbortSignal));
    source.destroy();
  };
  const onError = (error: Error) => handlers.onFail(error.message === "aborted" ? terminated(error) : error);
  const onClose = () => {
    if (incoming.complete === false) handlers.onFail(terminated());
  };
  source.on("readable", handlers.onChange);
  source.on("end", handlers.onEnd);
  source.on("error", onError);
  source.on("close", onClose);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    stop: () => {
      signal?.removeEventListener("abort", onAbort);
      source.off("readable", handlers.onChange);
    },
  };
}

class NodeChunkIterator implements AsyncIterator<Uint8Array> {
  #ended = false;
  #failure: { error: unknown } | undefined;
  #waiting:
    | { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: unknown) => void }
    | undefined;
  readonly #watch: SourceWatch;

  constructor(
    private readonly source: Readable,
    signal: AbortSignal | undefined,
  ) {
    this.#watch = watchSource(source, signal, {
      onChange: () => this.#wake(),
      onEnd: () => {
        this.#ended = true;
        this.#watch.stop();
        this.#wake();
      },
      onFail: (error) => {
        if (this.#ended || this.#failure) return;
        this.#failure = { error };
        this.#watch.stop();
        this.#wake();
      },
    });
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    const result = this.#poll();
    if (result) return result;
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.#ended && !this.#failure) {
      this.#failure = { error: new TypeError("the body was closed") };
      this.#watch.stop();
      this.source.destroy();
    }
    return DONE;
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
    const waiting = this.#waiting;
    if (!waiting) return;
    const result = this.#poll();
    if (!result) return;
    this.#waiting = undefined;
    result.then(waiting.resolve, waiting.reject);
  }
}

/**
 * The web stream over the source. It holds at most one chunk beyond what its reader asked for (a
 * high-water mark of 0) and attaches to the source on its first pull, after `claim()` agrees.
 */
function webStream(
  source: Readable,
  signal: AbortSignal | undefined,
  claim: () => boolean,
): ReadableStream<Uint8Array> {
  let settled = false;
  let wanted = false;
  let watch: SourceWatch | undefined;
  let drain = () => {};
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!watch) {
          if (!claim()) {
            settled = true;
            controller.error(new TypeError("Body is unusable: Body has already been read"));
            return;
          }
          drain = () => {
            while (wanted && !settled) {
              const chunk = source.read() as Buffer | null;
              if (chunk === null) return;
              controller.enqueue(asBytes(chunk));
              wanted = (controller.desiredSize ?? 0) > 0;
            }
          };
          watch = watchSource(source, signal, {
            onChange: drain,
            onEnd: () => {
              if (settled) return;
              settled = true;
              watch?.stop();
              controller.close();
            },
            onFail: (error) => {
              if (settled) return;
              settled = true;
              watch?.stop();
              controller.error(error);
            },
          });
        }
        wanted = true;
        drain();
      },
      cancel() {
        settled = true;
        watch?.stop();
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
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
