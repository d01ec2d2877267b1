import { afterEach, describe, expect, it, vi } from "vitest";
import { createEventBatcher } from "./event-batcher.js";

describe("createEventBatcher", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("hands over everything pushed within one frame as one array", () => {
    vi.useFakeTimers();
    const batches: number[][] = [];
    const batcher = createEventBatcher<number>((items) => batches.push(items), { intervalMs: 16 });
    for (let item = 0; item < 5; item += 1) batcher.push(item);
    vi.advanceTimersByTime(15);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[0, 1, 2, 3, 4]]);
    batcher.push(5);
    vi.advanceTimersByTime(16);
    expect(batches).toEqual([[0, 1, 2, 3, 4], [5]]);
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(2);
  });

  it("makes at most one update per frame however many events arrive", () => {
    vi.useFakeTimers();
    let flushes = 0;
    let received = 0;
    const batcher = createEventBatcher<number>((items) => {
      flushes += 1;
      received += items.length;
    });
    // 400 events a second for one second, one every 2.5 ms.
    for (let tick = 0; tick < 400; tick += 1) {
      batcher.push(tick);
      vi.advanceTimersByTime(2.5);
    }
    batcher.close();
    expect(received).toBe(400);
    expect(flushes).toBeLessThanOrEqual(Math.ceil(1000 / 16) + 1);
  });

  it("flushes on demand, and close flushes then drops later pushes", () => {
    vi.useFakeTimers();
    const batches: string[][] = [];
    const batcher = createEventBatcher<string>((items) => batches.push(items));
    batcher.push("approval");
    batcher.flush();
    expect(batches).toEqual([["approval"]]);
    batcher.push("last");
    batcher.close();
    batcher.push("late");
    vi.advanceTimersByTime(100);
    expect(batches).toEqual([["approval"], ["last"]]);
  });
});
