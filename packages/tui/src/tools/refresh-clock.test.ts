import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { noteKeypress } from "../keys/input-priority.js";
import { createRefreshClock, REFRESH_MS, TYPING_GAP_MS } from "./refresh-clock.js";

/** Lets `setImmediate` callbacks run (the time right after a key's frame). */
const afterFrame = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  // The clock's timer and the time are fake; `setImmediate` (after a key's frame) stays real.
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createRefreshClock", () => {
  it("ticks every interval, telling every listener in the same task, and stops with the last one", () => {
    const clock = createRefreshClock();
    const heard: string[] = [];
    const stopA = clock.subscribe(() => heard.push(`a${clock.tick}`));
    const stopB = clock.subscribe(() => heard.push(`b${clock.tick}`));
    vi.advanceTimersByTime(REFRESH_MS - 1);
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(heard).toEqual(["a1", "b1"]);
    vi.advanceTimersByTime(REFRESH_MS);
    expect(heard).toEqual(["a1", "b1", "a2", "b2"]);
    stopA();
    stopB();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds a tick that falls due after a key press until right after the next key's frame", async () => {
    const clock = createRefreshClock();
    const ticks: number[] = [];
    const stop = clock.subscribe(() => ticks.push(clock.tick));
    noteKeypress();
    vi.advanceTimersByTime(REFRESH_MS);
    expect(ticks).toEqual([]);
    noteKeypress();
    // Not in the key's own task (its frame is drawn first), but in the one right after it.
    expect(ticks).toEqual([]);
    await afterFrame();
    expect(ticks).toEqual([1]);
    stop();
  });

  it("while keys come less than TYPING_GAP_MS apart, ticks only right after keys; then on intervals again", async () => {
    const clock = createRefreshClock();
    const ticks: number[] = [];
    const stop = clock.subscribe(() => ticks.push(clock.tick));
    // Two seconds of typing, a key every 150 ms: each owed tick follows a key's frame.
    for (let elapsed = 0; elapsed < 2000; elapsed += 150) {
      noteKeypress();
      await afterFrame();
      const before = ticks.length;
      vi.advanceTimersByTime(150);
      expect(ticks).toHaveLength(before);
    }
    // One tick per key at most (a key every 150 ms, an interval every 100 ms).
    expect(ticks.length).toBeGreaterThanOrEqual(10);
    expect(ticks.length).toBeLessThanOrEqual(14);
    // The keys stop: the intervals tick again once the typing gap has passed.
    const typed = ticks.length;
    vi.advanceTimersByTime(TYPING_GAP_MS + REFRESH_MS);
    expect(ticks.length).toBeGreaterThan(typed);
    vi.advanceTimersByTime(10 * REFRESH_MS);
    expect(ticks.length).toBeGreaterThanOrEqual(typed + 10);
    stop();
  });
});
