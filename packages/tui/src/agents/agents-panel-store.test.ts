import type { AgentEvent } from "@nyzhi/core";
import { describe, expect, it, vi } from "vitest";
import { completed, LEAD, OPAL, spawned, spent } from "./__fixtures__/agent-events.js";
import { createAgentsPanelStore } from "./agents-panel-store.js";
import { createAgentTreeState } from "./agents-reducer.js";

const textDelta = (delta: string): AgentEvent => ({ type: "text-delta", agent: OPAL, delta });

describe("createAgentsPanelStore", () => {
  it("reduces each batch of the app's pump at once, with one publish per batch that changes something", () => {
    const store = createAgentsPanelStore();
    const publishes = vi.fn();
    store.subscribe(publishes);
    store.pushAll(spawned(LEAD, OPAL, 1000));
    expect(publishes).toHaveBeenCalledTimes(1);
    expect(store.snapshot().tree.roots).toEqual([OPAL.agentId]);

    // A tick's worth of chunks and usage: one publish for the batch, everything in it shown.
    store.pushAll([spent(OPAL, 1000, 200, 0.01, 1100), textDelta("a"), textDelta("b")]);
    expect(publishes).toHaveBeenCalledTimes(2);
    expect(store.snapshot().tree.nodes[OPAL.agentId]?.own.usage.inputTokens).toBe(1000);
    expect(store.snapshot().transcripts[OPAL.agentId]?.items.at(-1)).toMatchObject({ text: "ab" });

    // A batch that changes nothing the panel shows publishes nothing.
    const shown = store.snapshot();
    store.pushAll([{ type: "tool-call-delta", agent: OPAL, callId: "c", delta: "{" }]);
    expect(publishes).toHaveBeenCalledTimes(2);
    expect(store.snapshot()).toBe(shown);

    store.pushAll(completed(LEAD, OPAL, "completed: done", 2000, { tokens: 1200, costUsd: 0.01 }));
    expect(store.snapshot().tree.nodes[OPAL.agentId]?.lifecycle).toBe("completed");
    expect(publishes).toHaveBeenCalledTimes(3);

    store.update(() => ({ tree: createAgentTreeState(), transcripts: {}, teams: undefined }));
    expect(store.snapshot().tree.roots).toEqual([]);
    store.close();
    store.push(textDelta("late"));
    expect(store.snapshot().transcripts[OPAL.agentId]).toBeUndefined();
  });
});
