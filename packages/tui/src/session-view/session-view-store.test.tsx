import type { AgentEvent } from "@nyzhi/core";
import { Text } from "ink";
import { render } from "ink-testing-library";
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { LEAD, OPAL, spawned, spent } from "../agents/__fixtures__/agent-events.js";
import { createSessionViewStore, type SessionViewStore, useSessionView } from "./session-view-store.js";

const textDelta = (agent: typeof LEAD, delta: string): AgentEvent => ({ type: "text-delta", agent, delta });

const renders = { panel: 0, transcript: 0 };
function Panel({ view }: { view: SessionViewStore }) {
  const tree = useSessionView(view, (state) => state.tree);
  renders.panel += 1;
  return <Text>{tree.roots.length} agents</Text>;
}
function Transcript({ view }: { view: SessionViewStore }) {
  const lead = useSessionView(view, (state) => state.lead);
  renders.transcript += 1;
  return <Text>{lead.items.length} items</Text>;
}

describe("createSessionViewStore", () => {
  it("reduces each batch of the pump at once, with one publish per batch that changes the view", () => {
    const store = createSessionViewStore();
    const publishes = vi.fn();
    store.subscribe(publishes);
    store.pushAll(spawned(LEAD, OPAL, 1000));
    expect(publishes).toHaveBeenCalledTimes(1);
    expect(store.snapshot().tree.roots).toEqual([OPAL.agentId]);

    // A tick's worth of chunks and usage: one publish, everything in it shown.
    store.pushAll([spent(OPAL, 1000, 200, 0.01, 1100), textDelta(OPAL, "a"), textDelta(OPAL, "b")]);
    expect(publishes).toHaveBeenCalledTimes(2);
    expect(store.snapshot().agents[OPAL.agentId]?.items.at(-1)).toMatchObject({ text: "ab" });

    // A batch that changes nothing shown publishes nothing.
    const shown = store.snapshot();
    store.pushAll([{ type: "tool-call-delta", agent: OPAL, callId: "c", delta: "{" }]);
    expect(publishes).toHaveBeenCalledTimes(2);
    expect(store.snapshot()).toBe(shown);

    store.close();
    store.push(textDelta(OPAL, "late"));
    expect(store.snapshot()).toBe(shown);
  });

  it("re-renders a reader of one slice only when that slice changes", async () => {
    const store = createSessionViewStore();
    const app = render(
      <>
        <Panel view={store} />
        <Transcript view={store} />
      </>,
    );
    // The lead's first event teaches the tree the lead's id; after that its tokens are not the panel's.
    await act(async () => store.push(textDelta(LEAD, "x")));
    const before = { ...renders };
    // Fifty of the lead's tokens: the transcript redraws for each batch, the panel never.
    for (let index = 0; index < 50; index += 1) await act(async () => store.push(textDelta(LEAD, "x")));
    expect(renders.panel).toBe(before.panel);
    expect(renders.transcript).toBe(before.transcript + 50);
    // A subagent's tokens: neither (the tree row already says "writing" after the first).
    await act(async () => store.pushAll(spawned(LEAD, OPAL, 1000)));
    await act(async () => store.push(textDelta(OPAL, "a")));
    const settled = { ...renders };
    for (let index = 0; index < 20; index += 1) await act(async () => store.push(textDelta(OPAL, "b")));
    expect(renders).toEqual(settled);
    expect(app.lastFrame()).toContain("1 agents");
    app.unmount();
  });
});
