import type { ProviderError } from "../errors/provider-error.js";
import type { StreamPart } from "../model/stream-part.js";

/** Turns one vendor's events into stream parts; one instance per response. */
export interface EventMapper<Event> {
  /** Parts for one event (often none or one). */
  map(event: Event): StreamPart[];
  /** Set once an event ended the response; remaining events are not read. */
  readonly finished: boolean;
  /** Closing parts when the source ends, or undefined when the response never said it was done. */
  end(): StreamPart[] | undefined;
  /**
   * Set when an event failed after others from the same chunk had already been mapped: the parts
   * `map` returned are delivered, then this becomes the final error part.
   */
  readonly failure?: unknown;
}

export interface MapEventStreamOptions<Event> {
  /**
   * Sends the request with `signal` (the caller's signal combined with the stream's own, which
   * fires when iteration ends early); resolves with the vendor's event stream.
   */
  open: (signal: AbortSignal) => Promise<AsyncIterable<Event>>;
  /** The caller's signal. */
  signal?: AbortSignal | undefined;
  mapper: EventMapper<Event>;
  /** Maps a failure to an error part's error. `phase` says whether the response had started. */
  toError: (error: unknown, phase: "request" | "stream") => ProviderError;
}

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };
/** ms a finished response may keep its stream open before it is aborted. */
const DRAIN_LIMIT_MS = 1000;
/**
 * ms the final parts wait for the body's end. The end usually follows the final event at once, but
 * in a later read: without the wait, a caller whose next request follows without an I/O turn (a
 * quick tool call) finds the connection still busy and opens another (a TLS handshake, remotely).
 * Only a server that keeps the stream open after its final event makes the wait last this long.
 */
const SETTLE_MS = 10;

/**
 * The stream every adapter's `doStream` returns: pulls vendor events one at a time, maps them
 * through an `EventMapper` and hands the parts out from a queue. Written as a plain async
 * iterator rather than an async generator because a generator layer costs several times more
 * per part (see bench/provider), and the adapters sit on the hot path of every token.
 * Failures — opening, reading, mapping, or a source that ends before the response was done —
 * become one final `error` part. Ending iteration early (`break`) closes the source, which
 * aborts the HTTP request.
 */
export function mapEventStream<Event>(options: MapEventStreamOptions<Event>): AsyncIterable<StreamPart> {
  return { [Symbol.asyncIterator]: () => new EventStreamIterator(options) };
}

class EventStreamIterator<Event> implements AsyncIterator<StreamPart> {
  private source: AsyncIterator<Event> | undefined;
  private queue: StreamPart[] = [];
  private head = 0;
  private done = false;
  /** Aborts the request when iteration ends early or a finished response will not close. */
  private readonly controller = new AbortController();

  constructor(private readonly options: MapEventStreamOptions<Event>) {}

  next(): Promise<IteratorResult<StreamPart>> {
    if (this.head < this.queue.length) {
      return Promise.resolve({ value: this.queue[this.head++]!, done: false });
    }
    if (this.done) return Promise.resolve(DONE);
    return this.pull();
  }

  async return(): Promise<IteratorResult<StreamPart>> {
    this.finish([]);
    await this.closeSource();
    return DONE;
  }

  private async pull(): Promise<IteratorResult<StreamPart>> {
    const { mapper, toError } = this.options;
    let phase: "request" | "stream" = "request";
    try {
      if (!this.source) {
        const own = this.controller.signal;
        const signal = this.options.signal ? AbortSignal.any([this.options.signal, own]) : own;
        this.source = (await this.options.open(signal))[Symbol.asyncIterator]();
      }
      phase = "stream";
      for (;;) {
        const result = await this.source.next();
        if (result.done) {
          const end = mapper.end();
          if (mapper.failure !== undefined) {
            this.finish([...(end ?? []), { type: "error", error: toError(mapper.failure, phase) }]);
            break;
          }
          this.finish(
            end ?? [
              {
                type: "error",
                error: toError(new Error("the stream ended before the response was complete"), phase),
              },
            ],
          );
          break;
        }
        const parts = mapper.map(result.value);
        if (mapper.failure !== undefined) {
          this.finish([...parts, { type: "error", error: toError(mapper.failure, phase) }]);
          void this.closeSource();
          break;
        }
        if (mapper.finished) {
          this.finish(parts);
          await settleWithin(this.drainSource(), SETTLE_MS);
          break;
        }
        if (parts.length > 0) {
          this.queue = parts;
          this.head = 0;
          break;
        }
      }
    } catch (error) {
      this.finish([{ type: "error", error: toError(error, phase) }]);
      void this.closeSource();
    }
    // A plain result, not `this.next()`: returning a promise from an async function costs two more ticks.
    return this.head < this.queue.length ? { value: this.queue[this.head++]!, done: false } : DONE;
  }

  /** Queues the last parts; nothing is read after them. */
  private finish(parts: StreamPart[]): void {
    this.done = true;
    this.queue = parts;
    this.head = 0;
  }

  /**
   * Reads what follows the final event (usually just the end of the body), so the connection goes
   * back to the pool; aborting instead would cost an exception per response. The final parts wait
   * for it up to SETTLE_MS, then it goes on in the background.
   * A server that keeps the stream open after its final event is cut off after `DRAIN_LIMIT_MS`.
   */
  private async drainSource(): Promise<void> {
    const source = this.source;
    if (!source) return;
    const timer = setTimeout(() => void this.closeSource(), DRAIN_LIMIT_MS);
    timer.unref?.();
    try {
      while (!(await source.next()).done) {
        // discard
      }
    } catch {
      // the response is complete; a failure after it changes nothing
    } finally {
      clearTimeout(timer);
      if (this.source === source) this.source = undefined;
    }
  }

  /** Aborts the request (a pending read rejects at once), then closes the iterator. */
  private async closeSource(): Promise<void> {
    const source = this.source;
    this.source = undefined;
    this.controller.abort();
    try {
      await source?.return?.();
    } catch {
      // closing an aborted stream can reject; the caller already has every part it will get
    }
  }
}

/** Resolves when `work` does or after `ms`, whichever is first; `work` goes on either way. */
function settleWithin(work: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
