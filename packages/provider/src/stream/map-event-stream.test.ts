import { describe, expect, it } from "vitest";
import { ProviderError } from "../errors/provider-error.js";
import type { StreamPart } from "../model/stream-part.js";
import { type EventMapper, mapEventStream } from "./map-event-stream.js";

/** Maps numbers to text deltas; `0` ends the response. */
class NumberMapper implements EventMapper<number> {
  finished = false;
  map(event: number): StreamPart[] {
    if (event === 0) {
      this.finished = true;
      return [{ type: "finish", reason: "stop" }];
    }
    if (event < 0) throw new SyntaxError("bad event");
    return event % 2 === 0 ? [] : [{ type: "text-delta", id: "t", delta: String(event) }];
  }
  end(): StreamPart[] | undefined {
    return undefined;
  }
}

function source(events: number[], state: { closed: boolean; signal?: AbortSignal }) {
  return async (signal: AbortSignal) => {
    state.signal = signal;
    return (async function* () {
      try {
        yield* events;
      } finally {
        state.closed = true;
      }
    })();
  };
}

const toError = (error: unknown, phase: "request" | "stream") =>
  new ProviderError(phase === "request" ? "network_error" : "invalid_response", String(error), {
    providerId: "t",
  });

async function collect(
  stream: AsyncIterable<StreamPart>,
  limit = Number.POSITIVE_INFINITY,
): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) {
    parts.push(part);
    if (parts.length >= limit) break;
  }
  return parts;
}

describe("mapEventStream", () => {
  it("maps events, skips events without parts and stops at the finishing event", async () => {
    const state = { closed: false };
    const parts = await collect(
      mapEventStream({ open: source([1, 2, 3, 0, 5], state), mapper: new NumberMapper(), toError }),
    );
    expect(parts).toEqual([
      { type: "text-delta", id: "t", delta: "1" },
      { type: "text-delta", id: "t", delta: "3" },
      { type: "finish", reason: "stop" },
    ]);
  });

  it("reports a source that ends early, a mapping failure and a failed open as one error part", async () => {
    const early = await collect(
      mapEventStream({ open: source([1], { closed: false }), mapper: new NumberMapper(), toError }),
    );
    expect(early.map((part) => part.type)).toEqual(["text-delta", "error"]);
    const bad = await collect(
      mapEventStream({ open: source([1, -1, 3], { closed: false }), mapper: new NumberMapper(), toError }),
    );
    expect(bad.at(-1)).toMatchObject({ type: "error", error: { code: "invalid_response" } });
    const failed = await collect(
      mapEventStream({
        open: () => Promise.reject(new Error("refused")),
        mapper: new NumberMapper(),
        toError,
      }),
    );
    expect(failed).toMatchObject([{ type: "error", error: { code: "network_error" } }]);
  });

  it("aborts the request and closes the source when the caller stops early", async () => {
    const state: { closed: boolean; signal?: AbortSignal } = { closed: false };
    const caller = new AbortController();
    await collect(
      mapEventStream({
        open: source([1, 3, 5, 7], state),
        mapper: new NumberMapper(),
        toError,
        signal: caller.signal,
      }),
      1,
    );
    expect(state.closed).toBe(true);
    expect(state.signal?.aborted).toBe(true);
    expect(caller.signal.aborted).toBe(false);
  });

  it("hands out the final parts once the body has ended, when it ends at once after the final event", async () => {
    // The end arrives in a later I/O turn, as the end of a chunked body after its last event does.
    let ended = false;
    const open = async () =>
      (async function* () {
        yield 1;
        yield 0;
        await new Promise((resolve) => setImmediate(resolve));
        ended = true;
      })();
    const parts = await collect(mapEventStream({ open, mapper: new NumberMapper(), toError }));
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop" });
    expect(ended).toBe(true);
  });

  it("does not hold the final parts for a body that stays open after the final event", async () => {
    // Were the parts held until the body's end, this test would time out.
    let release: () => void = () => {};
    const open = async () =>
      (async function* () {
        yield 0;
        await new Promise<void>((resolve) => (release = resolve));
      })();
    const parts = await collect(mapEventStream({ open, mapper: new NumberMapper(), toError }));
    expect(parts).toEqual([{ type: "finish", reason: "stop" }]);
    release();
  });
});
