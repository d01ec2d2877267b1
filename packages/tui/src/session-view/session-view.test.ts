import type { AgentEvent, AgentTag, TeamSnapshot } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import {
  completed,
  LEAD,
  ledgerOf,
  OPAL,
  QUARTZ,
  spawned,
  spentIn,
} from "../agents/__fixtures__/agent-events.js";
import { usageEvent } from "../test-support/usage-events.js";
import {
  createSessionView,
  emptySessionTotals,
  reduceSessionView,
  type SessionViewInput,
} from "./session-view.js";

const from = (agent: AgentTag, event: Omit<AgentEvent, "agent">, at = 1_000) =>
  ({ ...event, agent, at }) as SessionViewInput;

const ALPHA: TeamSnapshot["teams"][number] = {
  name: "alpha",
  leadUnread: 1,
  board: { open: 2, claimed: 1, done: 0 },
  members: [{ name: "ruby", agentId: undefined, role: "reviewer", state: "working", unread: 0 }],
};

describe("reduceSessionView: one view of the session from one batch", () => {
  it("gives the lead's transcript, the child's keyed by its id, the tree, the totals and the teams from one state", () => {
    const ledger = ledgerOf({ [OPAL.agentId]: LEAD.agentId, [QUARTZ.agentId]: OPAL.agentId });
    const batch: SessionViewInput[] = [
      { type: "user-prompt", text: "find the call sites", at: 900 },
      from(LEAD, { type: "turn-start", turnId: "t1", input: "find the call sites" } as Omit<
        AgentEvent,
        "agent"
      >),
      from(LEAD, { type: "text-delta", delta: "Asking Opal." } as Omit<AgentEvent, "agent">),
      ...spawned(LEAD, OPAL, 1_000),
      from(OPAL, { type: "turn-start", turnId: "o1", input: "grep" } as Omit<AgentEvent, "agent">),
      from(OPAL, { type: "step-start", step: 1 } as Omit<AgentEvent, "agent">),
      from(OPAL, { type: "text-delta", delta: "Searching." } as Omit<AgentEvent, "agent">),
      ...spawned(OPAL, QUARTZ, 1_100),
      spentIn(ledger, OPAL, 1_000, 200, 0.01, 1_200),
      spentIn(ledger, QUARTZ, 500, 100, 0.005, 1_300),
      {
        type: "team-state",
        agent: LEAD,
        changes: ["status"],
        teams: [ALPHA],
        at: 1_400,
      },
    ];
    const view = reduceSessionView(createSessionView(), batch);

    // The lead's transcript: its prompt, its words and the lifecycle lines; none of Opal's words.
    expect(view.lead.items.map((item) => item.kind)).toEqual(["user", "assistant", "subagent", "subagent"]);
    expect(view.lead.items[1]).toMatchObject({ text: "Asking Opal." });
    expect(JSON.stringify(view.lead.items)).not.toContain("Searching.");
    // Opal's transcript, keyed by its id, owned by it (as core sent its events: depth 1, not rebased).
    const opal = view.agents[OPAL.agentId]!;
    expect(opal.owner).toEqual({ agentId: OPAL.agentId, depth: 1 });
    expect(opal.items.map((item) => item.kind)).toEqual(["assistant", "subagent"]);
    expect(opal.items[0]).toMatchObject({ text: "Searching." });
    expect(opal.items.some((item) => item.kind === "turn-footer")).toBe(false);
    expect(view.agents[LEAD.agentId]).toBeUndefined();
    // The tree's rows and their subtree figures, core's.
    expect(view.tree.roots).toEqual([OPAL.agentId]);
    expect(view.tree.nodes[OPAL.agentId]?.children).toEqual([QUARTZ.agentId]);
    expect(view.tree.nodes[OPAL.agentId]?.subtree?.usage.inputTokens).toBe(1_500);
    expect(view.tree.agentsTotal.usage.inputTokens).toBe(1_500);
    // The session's totals: core's, as the last event sent them; the teams as core reported them.
    expect(view.totals.usage.inputTokens).toBe(1_500);
    expect(view.totals.costUsd).toBeCloseTo(0.015);
    expect(view.teams).toEqual({ teams: [ALPHA] });
  });

  it("keeps the object of every slice an event does not change, and the view when none changes", () => {
    let view = reduceSessionView(createSessionView(), [
      from(LEAD, { type: "text-delta", delta: "Hi." } as Omit<AgentEvent, "agent">),
      ...spawned(LEAD, OPAL, 1_000),
      from(OPAL, { type: "text-delta", delta: "a" } as Omit<AgentEvent, "agent">),
    ]);
    // The lead's tokens: the tree, the agents' transcripts, the totals and the teams keep their objects.
    const leadTokens = reduceSessionView(view, [
      from(LEAD, { type: "text-delta", delta: " More." } as Omit<AgentEvent, "agent">),
    ]);
    expect(leadTokens.lead).not.toBe(view.lead);
    expect(leadTokens.tree).toBe(view.tree);
    expect(leadTokens.agents).toBe(view.agents);
    expect(leadTokens.totals).toBe(view.totals);
    view = leadTokens;
    // A subagent's tokens: the lead's transcript keeps its object (the app does not redraw), and the
    // tree too while the row shows the same thing ("writing"); Opal's transcript changes.
    const childTokens = reduceSessionView(view, [
      from(OPAL, { type: "text-delta", delta: "b" } as Omit<AgentEvent, "agent">),
    ]);
    expect(childTokens.lead).toBe(view.lead);
    expect(childTokens.tree).toBe(view.tree);
    expect(childTokens.agents[OPAL.agentId]).not.toBe(view.agents[OPAL.agentId]);
    // A subagent's usage: the totals and the tree change, neither transcript does.
    const spent = reduceSessionView(childTokens, [
      usageEvent(
        OPAL,
        1,
        { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        0.001,
      ),
    ]);
    expect(spent.lead).toBe(childTokens.lead);
    expect(spent.totals).not.toBe(childTokens.totals);
    expect(spent.tree).not.toBe(childTokens.tree);
    expect(spent.agents).toBe(childTokens.agents);
    // Nothing any slice shows: the same view.
    const same = reduceSessionView(spent, [
      from(OPAL, { type: "tool-call-delta", callId: "c", delta: "{" } as Omit<AgentEvent, "agent">),
      from(LEAD, { type: "tool-call-delta", callId: "d", delta: "{" } as Omit<AgentEvent, "agent">),
    ]);
    expect(same).toBe(spent);
  });

  it("shows core's session totals as each event brings them, from a resumed session's to /clear", () => {
    const total = (inputTokens: number, costUsd: number, embeddingTokens = 0) => ({
      usage: { inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd,
      embeddingTokens,
    });
    const tokens = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const opened = reduceSessionView(createSessionView(), [
      from(LEAD, {
        type: "session-opened",
        sessionId: "s",
        providerId: "p",
        modelId: "m",
        sessionTotal: total(4000, 0.04),
      } as Omit<AgentEvent, "agent">),
    ]);
    expect(opened.totals).toEqual(total(4000, 0.04));
    // Core's totals count what the app never saw (earlier runs, a teammate): shown as sent, never summed.
    const used = reduceSessionView(opened, [
      usageEvent(LEAD, 1, tokens, 0.01, { sessionTotal: total(5000, 0.05) }),
      usageEvent(OPAL, 1, tokens, 0.005, { sessionTotal: total(6200, 0.055) }),
      from(LEAD, {
        type: "index-progress",
        phase: "ready",
        filesDone: 1,
        filesTotal: 2,
        chunks: 4,
        embedded: 4,
        embeddingTokens: 500,
        costUsd: 0.00001,
        sessionTotal: total(6200, 0.05501, 500),
      } as Omit<AgentEvent, "agent">),
    ]);
    expect(used.totals).toEqual(total(6200, 0.05501, 500));
    expect(used.lead.index).toEqual({ phase: "ready", filesDone: 1, filesTotal: 2 });
    const cleared = reduceSessionView(used, [{ type: "transcript-cleared" }]);
    expect(cleared.totals).toEqual(emptySessionTotals());
    expect(cleared.lead.items).toEqual([]);
  });

  it("takes the app's own actions: input to an agent, finished agents cleared, a worktree decided, teams read", () => {
    let view = reduceSessionView(createSessionView(), [
      { type: "teams-read", teams: { teams: [ALPHA] } },
      ...spawned(LEAD, OPAL, 1_000),
      { type: "agent-input", agentId: OPAL.agentId, text: "also check tests/", at: 1_100 },
    ]);
    expect(view.teams).toEqual({ teams: [ALPHA] });
    expect(view.agents[OPAL.agentId]?.items.at(-1)).toMatchObject({
      kind: "user",
      text: "also check tests/",
    });
    // A later read does not overwrite what an event said.
    const read = reduceSessionView(view, [{ type: "teams-read", teams: { teams: [] } }]);
    expect(read).toBe(view);
    // Finished agents stay until the next prompt clears them, with their transcripts.
    view = reduceSessionView(view, [
      ...completed(LEAD, OPAL, "completed: done", 2_000, { tokens: 10, costUsd: 0 }),
      { type: "agent-worktree-decided", agentId: OPAL.agentId },
    ]);
    expect(view.tree.nodes[OPAL.agentId]?.lifecycle).toBe("completed");
    const lead = view.lead;
    const finished = view;
    view = reduceSessionView(view, [{ type: "finished-agents-cleared" }]);
    expect(view.tree.roots).toEqual([]);
    expect(view.agents).toEqual({});
    expect(view.lead).toBe(lead);
    // A new session (/clear) takes them too, with the totals: the panel shows none of the last one's.
    const cleared = reduceSessionView(finished, [{ type: "transcript-cleared" }]);
    expect(cleared.tree.roots).toEqual([]);
    expect(cleared.agents).toEqual({});
  });
});
