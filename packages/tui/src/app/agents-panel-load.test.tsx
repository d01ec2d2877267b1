import type { AgentEvent, AgentTag } from "@nyzhi/core";
import { cleanup } from "ink-testing-library";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeSession, LEAD, type Turn, turnEnd, usage } from "../test-support/fake-session.js";
import { KEYS } from "../test-support/keys.js";
import { renderApp } from "../test-support/render-app.js";
import { usageEvent } from "../test-support/usage-events.js";

const CHILDREN: AgentTag[] = Array.from({ length: 8 }, (_, index) => ({
  agentId: `child-${index}`,
  depth: 1,
  nickname: `Child${index}`,
  role: "worker",
}));
/** Each child sends a chunk every this many ms (50 a second), for `STREAM_MS`. */
const CHUNK_MS = 20;
const STREAM_MS = 3000;

function spawn(child: AgentTag): AgentEvent[] {
  return [
    {
      type: "subagent-spawned",
      agent: LEAD,
      childId: child.agentId,
      nickname: child.nickname ?? "",
      role: child.role ?? "",
      depth: 1,
      unknownRole: false,
      model: "claude-haiku-4-5",
    },
    {
      type: "subagent-status-changed",
      agent: LEAD,
      childId: child.agentId,
      nickname: "",
      status: "running",
      child,
      state: { lifecycle: "running" },
    },
  ];
}

/**
 * The lead runs a tool (a spinner in the transcript) and spawns eight children; each streams text
 * and, every 200 ms, reports a step's usage.
 */
const fanout: Turn = async function* () {
  yield { type: "turn-start", agent: LEAD, turnId: "t", input: "" };
  for (const child of CHILDREN) yield* spawn(child);
  yield { type: "tool-start", agent: LEAD, callId: "c1", name: "bash", input: { command: "make" } };
  for (let elapsed = 0; elapsed < STREAM_MS; elapsed += CHUNK_MS) {
    await new Promise((resolve) => setTimeout(resolve, CHUNK_MS));
    for (const agent of CHILDREN) {
      yield { type: "text-delta", agent, delta: "c " };
      if (elapsed % 200 === 0)
        yield usageEvent(
          agent,
          elapsed,
          { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
          0,
        );
    }
  }
  yield turnEnd();
  return { reason: "completed", steps: 1, text: "", usage, costUsd: 0 };
};

/** Fake time moves `ms` in 4 ms steps, letting React and ink finish each step. */
async function elapse(ms: number): Promise<void> {
  for (let step = 0; step < ms; step += 4) {
    vi.advanceTimersByTime(4);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("the app while eight subagents stream", () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("draws about ten frames a second (the rows' refresh), not one per batch of events", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const { session } = fakeSession(fanout);
    const view = renderApp(session);
    await elapse(20);
    view.stdin.write("go");
    await elapse(20);
    view.stdin.write(KEYS.enter);
    await elapse(500);
    expect(view.lastFrame()).toContain("Agents · 8 working");
    expect(view.lastFrame()).toContain("bash make");
    /** The first child's row in the panel (the transcript names it too, above the panel). */
    const tokensAt = (frame: string | undefined) => {
      const lines = frame?.split("\n") ?? [];
      return lines
        .slice(lines.findIndex((line) => line.startsWith("Agents ·")))
        .find((line) => line.includes("Child0"));
    };
    const rowBefore = tokensAt(view.lastFrame());

    const before = view.frames.length;
    await elapse(1000);
    const frames = view.frames.length - before;
    // ink draws a frame for every commit: one per batch (60 a second) if the app re-rendered on
    // each; the rows, the tool's spinner and the children's usage change together on the refresh
    // clock's ten ticks a second.
    expect(frames).toBeGreaterThanOrEqual(5);
    expect(frames).toBeLessThanOrEqual(14);
    // The rows kept moving: the first child's tokens grew.
    expect(tokensAt(view.lastFrame())).not.toBe(rowBefore);
    await elapse(STREAM_MS);
  });
});
