import type { AgentEvent } from "@nyzhi/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RefreshClock } from "../tools/refresh-clock.js";
import { completed, LEAD, OPAL, spawned, spent } from "./__fixtures__/agent-events.js";
import { createAgentsPanelStore } from "./agents-panel-store.js";
import { createAgentTreeState } from "./agents-reducer.js";
import { FRAME_MS } from "./event-batcher.js";

/** A clock ticked by hand; counts its listeners. */
function manualClock() {
  const listeners = new Set<() => void>();
  let tick = 0;
  const clock: RefreshClock = {
    get tick() {
      return tick;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    clock,
    listening: () => listeners.size,
    advance() {
      tick += 1;
      for (const listener of [...listeners]) listener();
    },
  };
}

const textDelta = (delta: string): AgentEvent => ({ type: "text-delta", agent: OPAL, delta });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createAgentsPanelStore", () => {
  it("shows a spawned agent at once, and its tokens on the next tick, with one publish each", () => {
    const { clock, advance, listening } = manualClock();
    const store = createAgentsPanelStore({ clock });
    const publishes = vi.fn();
    store.subscribe(publishes);
    for (const event of spawned(LEAD, OPAL, 1000)) store.push(event);
    vi.advanceTimersByTime(FRAME_MS);
    expect(publishes).toHaveBeenCalledTimes(1);
    expect(store.snapshot().tree.roots).toEqual([OPAL.agentId]);
    expect(listening()).toBe(1);

    // A frame's worth of chunks and usage: reduced, but not shown before the tick.
    store.push(spent(OPAL, 1000, 200, 0.01, 1100));
    store.push(textDelta("a"));
    vi.advanceTimersByTime(FRAME_MS);
    expect(publishes).toHaveBeenCalledTimes(1);
    expect(store.snapshot().tree.nodes[OPAL.agentId]?.own.usage.inputTokens).toBe(0);
    advance();
    expect(publishes).toHaveBeenCalledTimes(2);
    expect(store.snapshot().tree.nodes[OPAL.agentId]?.own.usage.inputTokens).toBe(1000);
    // Nothing new: a tick publishes nothing.
    advance();
    expect(publishes).toHaveBeenCalledTimes(2);

    // Finishing is shown at once; with no agent at work the store leaves the clock.
    for (const event of completed(LEAD, OPAL, "completed: done", 2000, { tokens: 1200, costUsd: 0.01 }))
      store.push(event);
    vi.advanceTimersByTime(FRAME_MS);
    expect(publishes).toHaveBeenCalledTimes(3);
    expect(store.snapshot().tree.nodes[OPAL.agentId]?.lifecycle).toBe("completed");
    expect(listening()).toBe(0);
    store.close();
  });

  it("shows the open agent's transcript every frame, and what flush and update change at once", () => {
    const { clock } = manualClock();
    const store = createAgentsPanelStore({ clock });
    for (const event of spawned(LEAD, OPAL, 1000)) store.push(event);
    store.flush();
    store.setOpenAgent(OPAL.agentId);
    const before = store.snapshot();
    store.push(textDelta("hello"));
    vi.advanceTimersByTime(FRAME_MS);
    expect(store.snapshot()).not.toBe(before);
    expect(store.snapshot().transcripts[OPAL.agentId]).not.toBe(before.transcripts[OPAL.agentId]);

    store.setOpenAgent(undefined);
    const shown = store.snapshot();
    store.push(textDelta(" world"));
    vi.advanceTimersByTime(FRAME_MS);
    expect(store.snapshot()).toBe(shown);
    store.flush();
    expect(store.snapshot()).not.toBe(shown);

    store.update(() => ({ tree: createAgentTreeState(), transcripts: {}, teams: undefined }));
    expect(store.snapshot().tree.roots).toEqual([]);
    store.close();
  });
});
