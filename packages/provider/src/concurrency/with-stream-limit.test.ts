import { describe, expect, it } from "vitest";
import { ProviderError } from "../errors/provider-error.js";
import type { LanguageModel } from "../model/language-model.js";
import type { StreamPart } from "../model/stream-part.js";
import {
  createStreamLimiter,
  exemptFromStreamLimit,
  streamLimiterOf,
  withStreamLimit,
} from "./with-stream-limit.js";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fake model that records how many of its streams are open at once and in which order they start. */
function fakeModel(options: { delayMs?: number; fail?: boolean } = {}) {
  const state = { open: 0, maxOpen: 0, started: [] as string[] };
  const model: LanguageModel = {
    providerId: "fake",
    modelId: "fake-1",
    async *doStream(request) {
      state.open += 1;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      state.started.push(String(request.messages[0]?.content ?? ""));
      try {
        yield { type: "text-start", id: "t" } satisfies StreamPart;
        await tick(options.delayMs ?? 20);
        if (options.fail) {
          yield { type: "error", error: new ProviderError("server_error", "boom", { providerId: "fake" }) };
          return;
        }
        yield { type: "text-delta", id: "t", delta: "hi" };
        yield { type: "finish", reason: "stop" };
      } finally {
        state.open -= 1;
      }
    },
  };
  return { model, state };
}

const request = (label: string) => ({
  system: [],
  messages: [{ role: "user" as const, content: label }],
  tools: [],
});

async function drain(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("withStreamLimit", () => {
  it("lets an exempt view's requests (subagents) pass the limiter while the limited ones still queue", async () => {
    const { model, state } = fakeModel({ delayMs: 40 });
    const limiter = createStreamLimiter(1);
    const limited = withStreamLimit(model, limiter);
    const exempt = exemptFromStreamLimit(limited);
    expect(exemptFromStreamLimit(exempt)).toBe(exempt);
    await Promise.all([
      drain(limited.doStream(request("lead 1"))),
      drain(limited.doStream(request("lead 2"))),
      ...["a", "b", "c"].map((label) => drain(exempt.doStream(request(label)))),
    ]);
    // lead 1 and the three exempt children overlap; lead 2 waited for lead 1.
    expect(state.maxOpen).toBe(4);
    expect(state.started.at(-1)).toBe("lead 2");
    expect({ active: limiter.active, queued: limiter.queued }).toEqual({ active: 0, queued: 0 });
  });

  it("never lets more than the limit stream at once, serves waiters in order, and finishes them all", async () => {
    const { model, state } = fakeModel();
    const limiter = createStreamLimiter(3);
    const limited = withStreamLimit(model, limiter);
    const labels = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const results = await Promise.all(labels.map((label) => drain(limited.doStream(request(label)))));
    expect(state.maxOpen).toBe(3);
    expect(state.started).toEqual(labels);
    expect(results.map((parts) => parts.at(-1))).toEqual(
      labels.map(() => ({ type: "finish", reason: "stop" })),
    );
    expect({ active: limiter.active, queued: limiter.queued }).toEqual({ active: 0, queued: 0 });
  });

  it("releases the slot when the stream fails and when the caller stops reading early", async () => {
    const limiter = createStreamLimiter(1);
    const failing = withStreamLimit(fakeModel({ fail: true }).model, limiter);
    expect((await drain(failing.doStream(request("x")))).at(-1)?.type).toBe("error");
    expect(limiter.active).toBe(0);

    const { model } = fakeModel();
    const limited = withStreamLimit(model, limiter);
    for await (const part of limited.doStream(request("y"))) {
      expect(part.type).toBe("text-start");
      break;
    }
    expect(limiter.active).toBe(0);
    expect((await drain(limited.doStream(request("z")))).at(-1)).toEqual({ type: "finish", reason: "stop" });
  });

  it("ends a request aborted while it waits with an aborted error part and gives its place up", async () => {
    const limiter = createStreamLimiter(1);
    const { model, state } = fakeModel({ delayMs: 60 });
    const limited = withStreamLimit(model, limiter);
    const first = drain(limited.doStream(request("first")));
    const controller = new AbortController();
    const second = drain(limited.doStream(request("second"), { signal: controller.signal }));
    const third = drain(limited.doStream(request("third")));
    await tick(10);
    expect(limiter.queued).toBe(2);
    controller.abort();
    const secondParts = await second;
    expect(secondParts).toHaveLength(1);
    expect(secondParts[0]).toMatchObject({ type: "error", error: { code: "aborted" } });
    await Promise.all([first, third]);
    expect(state.started).toEqual(["first", "third"]);
    expect(limiter.active).toBe(0);
  });

  it("does not wrap a model twice with the same limiter", () => {
    const limiter = createStreamLimiter(2);
    const once = withStreamLimit(fakeModel().model, limiter);
    expect(withStreamLimit(once, limiter)).toBe(once);
    expect(streamLimiterOf(once)).toBe(limiter);
    expect(withStreamLimit(once, createStreamLimiter(2))).not.toBe(once);
  });
});
