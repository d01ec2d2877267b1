import type { Credential } from "@nyzhi/auth";
import { describe, expect, it, vi } from "vitest";
import { AbortedError, AuthError, ProviderError, RateLimitError } from "../errors/provider-error.js";
import type { LanguageModel } from "../model/language-model.js";
import type { StreamPart } from "../model/stream-part.js";
import { computeBackoff } from "./compute-backoff.js";
import { type RetryEvent, withRetry } from "./with-retry.js";

const request = { messages: [{ role: "user" as const, content: "hi" }] };
const usage: StreamPart = {
  type: "usage",
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
};
const text = (delta: string): StreamPart[] => [
  { type: "text-start", id: "0" },
  { type: "text-delta", id: "0", delta },
  { type: "text-end", id: "0" },
];
const finish: StreamPart = { type: "finish", reason: "stop" };
const error = (code: "server_error" | "stream_interrupted" | "invalid_request"): StreamPart => ({
  type: "error",
  error: new ProviderError(code, code, { providerId: "fake" }),
});

/** A model that answers call n with script[n] (the last repeats). */
function scripted(script: StreamPart[][], label = "fake"): LanguageModel & { calls: number } {
  return {
    providerId: "fake",
    modelId: label,
    calls: 0,
    async *doStream() {
      const parts = script[Math.min(this.calls, script.length - 1)]!;
      this.calls++;
      yield* parts;
    },
  };
}

/** The parts the model streamed; `retry` parts (the wrapper's notes) only with `withRetries`. */
async function collect(
  model: LanguageModel,
  signal?: AbortSignal,
  withRetries = false,
): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of model.doStream(request, signal ? { signal } : {})) {
    if (withRetries || part.type !== "retry") parts.push(part);
  }
  return parts;
}

const noSleep = { sleep: async () => {}, random: () => 0 };

describe("withRetry", () => {
  it("retries retryable errors that came before any content, then passes the answer through", async () => {
    const inner = scripted([
      [error("server_error")],
      [usage, error("stream_interrupted")],
      [...text("ok"), usage, finish],
    ]);
    const events: RetryEvent[] = [];
    const parts = await collect(
      withRetry(inner, { ...noSleep, onRetry: (event) => events.push(event) }),
      undefined,
      true,
    );
    // Each retry is also a part of the stream, so the one consuming it (an agent) can tell its user.
    expect(
      parts
        .slice(0, 2)
        .map((part) => part.type === "retry" && [part.attempt, part.maxRetries, part.error.code]),
    ).toEqual([
      [1, 3, "server_error"],
      [2, 3, "stream_interrupted"],
    ]);
    expect(parts.slice(2)).toEqual([...text("ok"), usage, finish]);
    expect(inner.calls).toBe(3);
    expect(events.map((event) => [event.attempt, event.error.code])).toEqual([
      [1, "server_error"],
      [2, "stream_interrupted"],
    ]);
  });

  it("passes a leading usage part through once, even when the answer has no content", async () => {
    const parts = await collect(withRetry(scripted([[usage, finish]]), noSleep));
    expect(parts).toEqual([usage, finish]);
  });

  it("does not retry after content was yielded: the error surfaces as a part, output is not repeated", async () => {
    const inner = scripted([
      [...text("partial").slice(0, 2), error("stream_interrupted")],
      [...text("again"), finish],
    ]);
    const parts = await collect(withRetry(inner, noSleep));
    expect(parts.map((part) => part.type)).toEqual(["text-start", "text-delta", "error"]);
    expect(inner.calls).toBe(1);
  });

  it("does not retry non-retryable errors and gives up after maxRetries", async () => {
    const invalid = scripted([[error("invalid_request")]]);
    expect((await collect(withRetry(invalid, noSleep))).map((part) => part.type)).toEqual(["error"]);
    expect(invalid.calls).toBe(1);
    const failing = scripted([[error("server_error")]]);
    const parts = await collect(withRetry(failing, { ...noSleep, maxRetries: 2 }));
    expect(parts).toEqual([error("server_error")]);
    expect(failing.calls).toBe(3);
  });

  it("waits Retry-After exactly, else exponential backoff with jitter capped at maxBackoffMs", async () => {
    const limited: StreamPart = {
      type: "error",
      error: new RateLimitError("429", { providerId: "fake", retryAfterMs: 1500 }),
    };
    const sleep = vi.fn(async () => {});
    const inner = scripted([[limited], [error("server_error")], [error("server_error")], [finish]]);
    await collect(withRetry(inner, { sleep, random: () => 1, initialBackoffMs: 100, maxBackoffMs: 150 }));
    expect(sleep.mock.calls.map((call) => (call as unknown[])[0])).toEqual([1500, 150, 150]);
    expect(
      computeBackoff(1, undefined, { initialBackoffMs: 1000, maxBackoffMs: 30_000, random: () => 0 }),
    ).toBe(500);
    expect(
      computeBackoff(3, undefined, { initialBackoffMs: 1000, maxBackoffMs: 30_000, random: () => 0.5 }),
    ).toBe(3000);
  });

  it("never retries an abort and stops during a backoff when aborted", async () => {
    const aborted: StreamPart = { type: "error", error: new AbortedError({ providerId: "fake" }) };
    const inner = scripted([[aborted], [finish]]);
    expect(await collect(withRetry(inner, noSleep))).toEqual([aborted]);

    const controller = new AbortController();
    const slow = scripted([[error("server_error")], [finish]]);
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const parts = await collect(withRetry(slow, { initialBackoffMs: 10_000 }), controller.signal);
    expect(Date.now() - started).toBeLessThan(500);
    expect(parts.map((part) => part.type === "error" && part.error.code)).toEqual(["aborted"]);
    expect(slow.calls).toBe(1);
  });

  it("after a 401 retries once, at once, with the credential onAuthFailed returns", async () => {
    const rejected: StreamPart = {
      type: "error",
      error: new AuthError("token expired", { providerId: "fake", status: 401 }),
    };
    const oauth = (accessToken: string): Credential => ({
      type: "oauth",
      providerId: "fake",
      accessToken,
      refreshToken: "r",
      source: "store",
      account: "default",
    });
    const stale = scripted([[rejected]], "stale");
    const fresh = scripted([[...text("ok"), finish]], "fresh");
    const seen: Credential[] = [];
    const model = withRetry(stale, {
      ...noSleep,
      credential: oauth("old"),
      createModel: (credential) =>
        credential.type === "oauth" && credential.accessToken === "new" ? fresh : stale,
      onAuthFailed: async (credential) => {
        seen.push(credential);
        return oauth("new");
      },
    });
    expect(await collect(model)).toEqual([...text("ok"), finish]);
    expect(seen).toHaveLength(1);
    expect([stale.calls, fresh.calls]).toEqual([1, 1]);

    // A refreshed credential that is rejected too: the error surfaces, no second refresh.
    const alwaysRejected = scripted([[rejected]], "rejected");
    let refreshes = 0;
    const stubborn = withRetry(alwaysRejected, {
      ...noSleep,
      credential: oauth("old"),
      createModel: () => alwaysRejected,
      onAuthFailed: async () => {
        refreshes++;
        return oauth("new");
      },
    });
    expect((await collect(stubborn)).map((part) => part.type)).toEqual(["error"]);
    expect(refreshes).toBe(1);
    expect(alwaysRejected.calls).toBe(2);
  });

  it("rotates to the credential onRateLimited returns and keeps using it", async () => {
    const first: Credential = { type: "api-key", providerId: "fake", key: "one", source: "store" };
    const second: Credential = { type: "api-key", providerId: "fake", key: "two", source: "store" };
    const limited: StreamPart = { type: "error", error: new RateLimitError("429", { providerId: "fake" }) };
    const byKey: Record<string, ReturnType<typeof scripted>> = {
      two: scripted([[...text("from two"), finish]], "two"),
    };
    const onRateLimited = vi.fn(async () => second);
    const sleep = vi.fn(async () => {});
    const model = withRetry(scripted([[limited]], "one"), {
      credential: first,
      createModel: (credential) => byKey[(credential as { key: string }).key]!,
      onRateLimited,
      sleep,
    });
    expect(await collect(model)).toEqual([...text("from two"), finish]);
    expect(onRateLimited).toHaveBeenCalledWith(first, undefined);
    expect(sleep).toHaveBeenCalledWith(0, undefined);
    await collect(model);
    expect(byKey.two!.calls).toBe(2);
  });
});
