import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchIdle } from "./idle-watchdog.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function fakeRequest() {
  const socket = { bytesRead: 0, bytesWritten: 0 };
  const errors: Error[] = [];
  return { socket, errors, destroy: (error: Error) => errors.push(error) };
}

describe("watchIdle", () => {
  it("ends a request whose socket moved no byte for the idle time", () => {
    const request = fakeRequest();
    const stop = watchIdle(request, 1000, "no data for 1 s");
    vi.advanceTimersByTime(800);
    expect(request.errors).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(request.errors.map((error) => error.message)).toEqual(["no data for 1 s"]);
    stop();
  });

  it("keeps a request alive while bytes move, however long it runs", () => {
    const request = fakeRequest();
    const quiet = fakeRequest();
    watchIdle(request, 1000, "idle");
    watchIdle(quiet, 1000, "idle");
    for (let second = 0; second < 30; second++) {
      request.socket.bytesRead += 10;
      vi.advanceTimersByTime(1000);
    }
    expect(request.errors).toEqual([]);
    expect(quiet.errors).toHaveLength(1);
    vi.advanceTimersByTime(1400);
    expect(request.errors).toHaveLength(1);
  });

  it("stops watching when told", () => {
    const request = fakeRequest();
    const stop = watchIdle(request, 1000, "idle");
    stop();
    vi.advanceTimersByTime(5000);
    expect(request.errors).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
