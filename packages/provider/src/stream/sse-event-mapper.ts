import type { ProviderError } from "../errors/provider-error.js";
import { LightResponse } from "../http/light-response.js";
import type { StreamPart } from "../model/stream-part.js";
import { type SseEvent, SseParser } from "../sse/parse-sse-stream.js";
import { Utf8StreamDecoder } from "../sse/utf8-stream-decoder.js";
import { type EventMapper, mapEventStream } from "./map-event-stream.js";

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
  private readonly decoder = new Utf8StreamDecoder();
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
    return this.mapEvents(this.parser.push(this.decoder.write(bytes)));
  }

  end(): StreamPart[] | undefined {
    const parts = this.mapEvents([...this.parser.push(this.decoder.end()), ...this.parser.end()]);
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

/**
 * The body of a streamed response, or a clear error when the server sent none. A response from
 * nodeHttpFetch is read straight from its Node stream (see NodeBody).
 */
export function eventStreamBody(response: Response): AsyncIterable<Uint8Array> {
  const direct = LightResponse.directBody(response);
  if (direct) return direct;
  if (!response.body) throw new Error("the response has no body");
  return response.body as unknown as AsyncIterable<Uint8Array>;
}

/** A vendor's reading of SSE events, bound to the SDK client and response once the request is sent. */
export interface SdkEventDecoder<Client, Event> {
  bind(client: Client, response: Response): void;
  decode(event: SseEvent): Event | undefined;
}

export interface SdkEventStreamOptions<Client, Event> {
  client: () => Promise<Client>;
  /** Sends the request through the SDK and resolves with its raw response (`.asResponse()`). */
  send: (client: Client, signal: AbortSignal) => Promise<Response>;
  decoder: SdkEventDecoder<Client, Event>;
  /** The vendor's event → part mapper. */
  state: EventMapper<Event>;
  signal?: AbortSignal | undefined;
  toError: (error: unknown, phase: "request" | "stream") => ProviderError;
}

/**
 * The SDK adapters' `doStream`: the SDK sends the request (auth headers, HTTP errors as its
 * `APIError`), and the raw event stream is parsed here as the SDK's own stream would be.
 */
export function sdkEventStream<Client, Event>(
  options: SdkEventStreamOptions<Client, Event>,
): AsyncIterable<StreamPart> {
  const { decoder } = options;
  return mapEventStream<Uint8Array>({
    open: async (signal) => {
      const client = await options.client();
      const response = await options.send(client, signal);
      decoder.bind(client, response);
      return eventStreamBody(response);
    },
    mapper: new SseEventMapper(options.state, (event) => decoder.decode(event)),
    signal: options.signal,
    toError: options.toError,
  });
}
