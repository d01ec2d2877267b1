import { Utf8StreamDecoder } from "./utf8-stream-decoder.js";
/**
 * A Server-Sent Events parser (WHATWG `text/event-stream` rules) for the vendors we parse
 * ourselves. It fixes the Rust parser's defects (spec edges §3.6): lines may end in CRLF, LF or
 * CR; UTF-8 is decoded in stream mode so a character split across network chunks survives; the
 * last event is delivered even without a trailing blank line.
 */

export interface SseEvent {
  /** The `event:` field; `undefined` means the default type, `message`. */
  event: string | undefined;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last `id:` field seen, if any. */
  id: string | undefined;
}

/** Incremental parser: feed decoded text with `push`, then call `end` once at EOF. */
export class SseParser {
  private buffer = "";
  /** The previous text ended in `\r`: a `\n` starting the next text belongs to that line break. */
  private skipLeadingLineFeed = false;
  private dataLines: string[] = [];
  private eventType: string | undefined;
  private lastId: string | undefined;

  push(text: string): SseEvent[] {
    let chunk = text;
    if (this.skipLeadingLineFeed && chunk.startsWith("\n")) chunk = chunk.slice(1);
    if (chunk === "") return [];
    this.skipLeadingLineFeed = false;
    this.buffer += chunk;
    const events: SseEvent[] = [];
    const buffer = this.buffer;
    let start = 0;
    // indexOf runs natively; most streams have no CR at all, so its search is done once.
    let lineFeed = buffer.indexOf("\n");
    let carriageReturn = buffer.indexOf("\r");
    while (lineFeed !== -1 || carriageReturn !== -1) {
      const isCarriageReturn = carriageReturn !== -1 && (lineFeed === -1 || carriageReturn < lineFeed);
      const end = isCarriageReturn ? carriageReturn : lineFeed;
      const event = this.line(buffer.slice(start, end));
      if (event) events.push(event);
      start = end + 1;
      if (isCarriageReturn) {
        if (start === buffer.length) this.skipLeadingLineFeed = true;
        else if (buffer.charCodeAt(start) === 10) start++;
      }
      if (lineFeed !== -1 && lineFeed < start) lineFeed = buffer.indexOf("\n", start);
      if (carriageReturn !== -1 && carriageReturn < start) carriageReturn = buffer.indexOf("\r", start);
    }
    this.buffer = buffer.slice(start);
    return events;
  }

  /** Flushes a last line and a last event that were not followed by a blank line. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer !== "") {
      const event = this.line(this.buffer);
      if (event) events.push(event);
      this.buffer = "";
    }
    const last = this.dispatch();
    if (last) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    // Fast path for the line nearly every event consists of.
    if (line.startsWith("data: ")) {
      this.dataLines.push(line.slice(6));
      return undefined;
    }
    if (line.charCodeAt(0) === 58) return undefined; // ":" starts a comment
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.dataLines.push(value);
        break;
      case "event":
        this.eventType = value;
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const dataLines = this.dataLines;
    const eventType = this.eventType;
    this.dataLines = [];
    this.eventType = undefined;
    if (dataLines.length === 0) return undefined;
    const data = dataLines.length === 1 ? (dataLines[0] as string) : dataLines.join("\n");
    return { event: eventType === "" ? undefined : eventType, data, id: this.lastId };
  }
}

/** Parses a byte stream (a `fetch` response body) into events. */
export async function* parseSseStream(
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): AsyncGenerator<SseEvent> {
  const decoder = new Utf8StreamDecoder();
  const parser = new SseParser();
  for await (const chunk of source as AsyncIterable<Uint8Array>) {
    const events = parser.push(decoder.write(chunk));
    for (const event of events) yield event;
  }
  const rest = [...parser.push(decoder.end()), ...parser.end()];
  for (const event of rest) yield event;
}
