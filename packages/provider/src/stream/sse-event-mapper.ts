import type { StreamPart } from "../model/stream-part.js";
import { type SseEvent, SseParser } from "../sse/parse-sse-stream.js";
import type { EventMapper } from "./map-event-stream.js";

const NO_PARTS: StreamPart[] = [];

/**
 * Maps a raw `text/event-stream` body through a vendor's event mapper: bytes → our SSE parser →
 * `decode` (the vendor's event, `undefined` to skip one, or a throw for an error event) → the
 * vendor mapper. The adapters read the SDK's raw response this way instead of iterating the SDK's
 * own stream, which adds several async-generator hops per event; parsing a whole network chunk
 * at once and handing its parts out from a queue is what brings the adapters within a few
 * percent of the bare SDK stream (bench/provider).
 */
export class SseEventMapper<Event> implements EventMapper<Uint8Array> {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly parser = new SseParser();
  failure: unknown;

  constructor(
    private readonly inner: EventMapper<Event>,
    private readonly decode: (event: SseEvent) => Event | undefined,
  ) {}

  get finished(): boolean {
    return this.inner.finished;
  }

  map(bytes: Uint8Array): StreamPart[] {
    return this.mapEvents(this.parser.push(this.decoder.decode(bytes, { stream: true })));
  }

  end(): StreamPart[] | undefined {
    const parts = this.mapEvents([...this.parser.push(this.decoder.decode()), ...this.parser.end()]);
    if (this.failure !== undefined || this.inner.finished) return parts;
    const end = this.inner.end();
    if (end === undefined) return undefined;
    return parts.length === 0 ? end : [...parts, ...end];
  }

  private mapEvents(events: SseEvent[]): StreamPart[] {
    let parts: StreamPart[] | undefined;
    for (const sse of events) {
      if (this.inner.finished) break;
      let mapped: StreamPart[];
      try {
        const event = this.decode(sse);
        if (event === undefined) continue;
        mapped = this.inner.map(event);
      } catch (error) {
        // The events before it in this chunk still reach the caller, then the error.
        this.failure = error;
        break;
      }
      if (mapped.length === 0) continue;
      if (parts === undefined) parts = [];
      for (const part of mapped) parts.push(part);
    }
    return parts ?? NO_PARTS;
  }
}

/** The body of a streamed response, or a clear error when the server sent none. */
export function eventStreamBody(response: Response): AsyncIterable<Uint8Array> {
  if (!response.body) throw new Error("the response has no body");
  return response.body as unknown as AsyncIterable<Uint8Array>;
}
