import type { AgentTag } from "@nyzhi/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLeadingBatcher } from "../app/use-batched-dispatch.js";
import {
  createSessionViewStore,
  type SessionViewStore,
  useSessionView,
} from "../session-view/session-view-store.js";
import { renderAtWidth } from "../test-support/render-at-width.js";
import { usageEvent } from "../test-support/usage-events.js";
import { LEAD, spawned } from "./__fixtures__/agent-events.js";
import { AgentTree } from "./agent-tree.js";
import type { AgentTreeInput } from "./agent-tree-types.js";

const AGENTS: AgentTag[] = Array.from({ length: 8 }, (_, index) => ({
  agentId: `agent-${index}`,
  depth: 1,
  nickname: `Agent${index}`,
  role: "worker",
}));

/** The n-th chunk of an agent: alternately a tool starting, its end, thinking, text and usage. */
function chunk(agent: AgentTag, n: number): AgentTreeInput {
  const callId = `${agent.agentId}-${Math.floor(n / 5)}`;
  switch (n % 5) {
    case 0:
      return { type: "tool-start", agent, callId, name: "read", input: { file_path: `src/file-${n}.ts` } };
    case 1:
      return { type: "tool-end", agent, callId, name: "read", output: "", isError: false, durationMs: 1 };
    case 2:
      return { type: "reasoning-delta", agent, delta: "…" };
    case 3:
      return { type: "text-delta", agent, delta: "…" };
    default: {
      // Core's sum of the agent's steps so far comes with each step's usage.
      const steps = (n + 1) / 5;
      const tokens = (input: number, output: number) => ({
        inputTokens: input,
        outputTokens: output,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
      return usageEvent(agent, n, tokens(100, 10), 0, {
        agentTotal: { usage: tokens(100 * steps, 10 * steps), costUsd: 0 },
      });
    }
  }
}

/** What the app does: one frame's batch at a time into the session view; the panel reads the tree. */
function Panel(props: { view: SessionViewStore; onRowRender: (key: string) => void }) {
  const tree = useSessionView(props.view, (view) => view.tree);
  return <AgentTree state={tree} width={100} isActive={false} onRowRender={props.onRowRender} />;
}

/** Lets React commit what the timers set off. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("AgentTree under load", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("renders a row at most about ten times a second while eight agents stream 50 chunks a second", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    const renders = new Map<string, number>();
    const view = createSessionViewStore();
    const { lastFrame, unmount } = renderAtWidth(
      <Panel view={view} onRowRender={(key) => renders.set(key, (renders.get(key) ?? 0) + 1)} />,
      100,
    );
    let flushes = 0;
    const batcher = createLeadingBatcher<AgentTreeInput>((inputs) => {
      flushes += 1;
      view.pushAll(inputs);
    }, 16);
    for (const agent of AGENTS) for (const event of spawned(LEAD, agent)) batcher.push(event);
    batcher.flush();
    await settle();
    renders.clear();

    // 2 s of fake time in 4 ms steps; every 20 ms each agent sends one chunk (50 a second).
    const durationMs = 2_000;
    let sent = 0;
    for (let elapsed = 0; elapsed < durationMs; elapsed += 4) {
      if (elapsed % 20 === 0) {
        for (const agent of AGENTS) batcher.push(chunk(agent, elapsed / 20));
        sent += AGENTS.length;
      }
      vi.advanceTimersByTime(4);
      await settle();
    }
    batcher.close();
    vi.advanceTimersByTime(100);
    await settle();

    expect(sent).toBe(800);
    // One update per frame at most, not one per event.
    expect(flushes).toBeLessThanOrEqual(durationMs / 16 + 2);
    const perRow = AGENTS.map((agent) => renders.get(agent.agentId) ?? 0);
    for (const count of perRow) {
      // ~10 a second (the refresh tick) plus a couple of one-off changes; it moves all the while.
      expect(count).toBeGreaterThanOrEqual(10);
      expect(count).toBeLessThanOrEqual((durationMs / 1000) * 10 + 3);
    }
    // Nothing is lost by the throttle: after the last tick every row shows its whole usage (20 × 110).
    expect(lastFrame()!.split("\n")[1]).toContain("2.2k");
    unmount();
  });
});
