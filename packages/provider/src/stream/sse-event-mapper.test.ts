import { describe, expect, it } from "vitest";
import type { StreamPart } from "../model/stream-part.js";
import { collectStream } from "./collect-stream.js";
import { type EventMapper, mapEventStream } from "./map-event-stream.js";
import { SseEventMapper } from "./sse-event-mapper.js";

/** A vendor mapper for `{ "t": "text" }` events that finishes on `{ "done": true }`. */
class TextMapper implements EventMapper<{ t?: string; done?: boolean }> {
  finished = false;
  map(event: { t?: string; done?: boolean }): StreamPart[] {
    if (event.done) {
      this.finished = true;
      return [{ type: "finish", reason: "stop" }];
    }
    return [{ type: "text-delta", id: "0", delta: event.t ?? "" }];
  }
  end(): undefined {
    return undefined;
  }
}

const bytes = (text: string) => new TextEncoder().encode(text);

function stream(chunks: string[]) {
  return mapEventStream<Uint8Array>({
    open: async () =>
      (async function* () {
        for (const chunk of chunks) yield bytes(chunk);
      })(),
    mapper: new SseEventMapper(new TextMapper(), (event) => {
      const data = JSON.parse(event.data) as { t?: string; done?: boolean; error?: string };
      if (data.error) throw new Error(data.error);
      return data;
    }),
    toError: (error) => ({ code: "server_error", message: (error as Error).message }) as never,
  });
}

describe("SseEventMapper", () => {
  it("maps every event of a network chunk, and events split across chunks", async () => {
    const result = await collectStream(
      stream(['data: {"t":"a"}\n\ndata: {"t":"b"}\n\nda', 'ta: {"t":"c"}\n\ndata: {"done":true}\n\n']),
    );
    expect(result.text).toBe("abc");
    expect(result.finishReason).toBe("stop");
  });

  it("delivers the parts before a failing event of the same chunk, then the error", async () => {
    const result = await collectStream(
      stream(['data: {"t":"a"}\n\ndata: {"error":"overloaded"}\n\ndata: {"t":"b"}\n\n']),
    );
    expect(result.text).toBe("a");
    expect(result.parts.at(-1)).toMatchObject({ type: "error" });
    expect(result.error?.message).toBe("overloaded");
  });

  it("reads a last event that has no blank line after it", async () => {
    const result = await collectStream(stream(['data: {"t":"a"}\n\n', 'data: {"done":true}']));
    expect(result.text).toBe("a");
    expect(result.finishReason).toBe("stop");
  });

  it("reports a stream that ends before the vendor said it was done", async () => {
    const result = await collectStream(stream(['data: {"t":"a"}\n\n']));
    expect(result.text).toBe("a");
    expect(result.parts.at(-1)?.type).toBe("error");
  });
});
