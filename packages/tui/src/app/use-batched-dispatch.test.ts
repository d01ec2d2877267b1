import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RefreshClock } from "../tools/refresh-clock.js";
import {
  BATCH_WINDOW_MS,
  batchReducer,
  createLeadingBatcher,
  createTwoLaneBatcher,
} from "./use-batched-dispatch.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createLeadingBatcher", () => {
  it("dispatches the first input at once and the burst after it in one batch per window", () => {
    const batches: number[][] = [];
    const batcher = createLeadingBatcher<number>((inputs) => batches.push([...inputs]));
    batcher.push(1);
    expect(batches).toEqual([[1]]);
    for (let input = 2; input <= 50; input++) batcher.push(input);
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual(Array.from({ length: 49 }, (_, index) => index + 2));
    // A quiet window ends the burst: the next input goes at once again.
    vi.advanceTimersByTime(BATCH_WINDOW_MS);
    batcher.push(51);
    expect(batches.at(-1)).toEqual([51]);
  });

  it("close dispatches what is queued", () => {
    const batches: string[][] = [];
    const batcher = createLeadingBatcher<string>((inputs) => batches.push([...inputs]));
    batcher.push("a");
    batcher.push("b");
    batcher.close();
    expect(batches).toEqual([["a"], ["b"]]);
  });

  it("the slow lane waits for the clock's tick and goes on as one batch; other inputs send it first", () => {
    let tick: () => void = () => undefined;
    const clock: RefreshClock = {
      tick: 0,
      subscribe(listener) {
        tick = listener;
        return () => {
          tick = () => undefined;
        };
      },
    };
    const batches: string[][] = [];
    const batcher = createTwoLaneBatcher<string>((inputs) => batches.push([...inputs]), {
      isBackground: (input) => input.startsWith("child"),
      clock,
    });
    batcher.push("child 1");
    batcher.push("child 2");
    vi.advanceTimersByTime(BATCH_WINDOW_MS * 4);
    expect(batches).toEqual([]);
    tick();
    expect(batches).toEqual([["child 1", "child 2"]]);
    vi.advanceTimersByTime(BATCH_WINDOW_MS);
    // A lead's input goes at once, after what waited before it.
    batcher.push("child 3");
    batcher.push("lead");
    expect(batches).toEqual([["child 1", "child 2"], ["child 3"]]);
    vi.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(batches.at(-1)).toEqual(["lead"]);
    batcher.close();
  });

  it("an urgent input goes at once with what was queued before it, and is announced", () => {
    const batches: string[][] = [];
    let announced = 0;
    const batcher = createTwoLaneBatcher<string>((inputs) => batches.push([...inputs]), {
      isBackground: () => false,
      isUrgent: (input) => input.startsWith("!"),
      onUrgent: () => announced++,
    });
    batcher.push("turn-start");
    batcher.push("step-start");
    expect(batches).toEqual([["turn-start"]]);
    batcher.push("!first words");
    // Not at the window's end: now, in order, and the app draws it at once.
    expect(batches).toEqual([["turn-start"], ["step-start", "!first words"]]);
    expect(announced).toBe(1);
    batcher.push("more words");
    expect(batches).toHaveLength(2);
    vi.advanceTimersByTime(BATCH_WINDOW_MS);
    expect(batches.at(-1)).toEqual(["more words"]);
  });

  it("batchReducer applies a batch in order", () => {
    const reduce = batchReducer((state: string, input: string) => state + input);
    expect(reduce("", ["a", "b", "c"])).toBe("abc");
  });
});
