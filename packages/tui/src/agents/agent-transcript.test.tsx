import { describe, expect, it, vi } from "vitest";
import { createSessionView, reduceSessionView, type SessionViewInput } from "../session-view/session-view.js";
import { KEYS, press } from "../test-support/keys.js";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { completed, LEAD, MICA, OPAL, QUARTZ, spawned, spent } from "./__fixtures__/agent-events.js";
import { AgentTranscript, breadcrumb } from "./agent-transcript.js";

/** Opal explores, spawns Quartz, which asks to write; the lead streams text of its own meanwhile. */
const WORKING: SessionViewInput[] = [
  ...spawned(LEAD, OPAL, 1_000),
  // Core reports each agent's turns: Opal's begins with its task.
  { type: "turn-start", agent: OPAL, turnId: "opal-1", input: "find the call sites", at: 1_000 },
  { type: "text-delta", agent: LEAD, delta: "The lead's own words", at: 1_000 },
  { type: "step-start", agent: OPAL, step: 1, at: 1_100 },
  { type: "reasoning-delta", agent: OPAL, delta: "Where are the call sites?", at: 1_200 },
  { type: "text-delta", agent: OPAL, delta: "I'll **search** first.", at: 1_300 },
  { type: "tool-call-start", agent: OPAL, callId: "g1", name: "grep", at: 1_400 },
  { type: "tool-start", agent: OPAL, callId: "g1", name: "grep", input: { pattern: "parse(" }, at: 1_400 },
  {
    type: "tool-end",
    agent: OPAL,
    callId: "g1",
    name: "grep",
    output: "src/a.ts:3\nsrc/b.ts:9",
    isError: false,
    durationMs: 200,
    at: 1_600,
  },
  spent(OPAL, 1_000, 234, 0.012, 1_700),
  { type: "step-end", agent: OPAL, step: 1, finishReason: "tool-calls", toolCalls: 1, at: 1_700 },
  { type: "step-start", agent: OPAL, step: 2, at: 1_800 },
  ...spawned(OPAL, QUARTZ, 2_000),
  {
    type: "approval-requested",
    id: "approval-1",
    agent: QUARTZ,
    callId: "w1",
    tool: "write",
    input: { file_path: "src/a.ts" },
    preview: "",
    at: 2_100,
  },
  { type: "agent-input", agentId: "opal-id", text: "also check tests/", at: 2_200 },
];

const FINISHED: SessionViewInput[] = [
  ...WORKING,
  { type: "text-delta", agent: OPAL, delta: "Two call sites.", at: 3_000 },
  spent(OPAL, 500, 100, 0.004, 3_100),
  { type: "step-end", agent: OPAL, step: 2, finishReason: "stop", toolCalls: 0, at: 3_100 },
  ...completed(OPAL, QUARTZ, "shutdown", 3_200, { tokens: 0, costUsd: 0 }),
  // Core's figures for the turn: they count a retried step whose usage event the panel never saw,
  // so they are not the sum of Opal's usage events (1.8k, $0.016).
  {
    type: "turn-end",
    agent: OPAL,
    turnId: "opal-1",
    reason: "completed",
    steps: 2,
    usage: { inputTokens: 2_000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0.02,
    text: "Two call sites.",
    at: 5_200,
  },
  ...completed(LEAD, OPAL, "completed: Two call sites.", 5_200, {
    tokens: 1_834,
    costUsd: 0.016,
    result: "Two call sites.",
  }),
];

const working = reduceSessionView(createSessionView(), WORKING);
const finished = reduceSessionView(createSessionView(), FINISHED);

describe("agent transcripts", () => {
  it("shows a subagent's own text, thinking and tools as the lead's are shown, and nothing of the lead's", () => {
    const items = working.agents["opal-id"]!.items;
    expect(items.map((item) => item.kind)).toEqual(["thinking", "assistant", "tool", "subagent", "user"]);
    expect(items[1]).toMatchObject({
      kind: "assistant",
      text: "I'll **search** first.",
      agent: { depth: 0 },
    });
    expect(items[2]).toMatchObject({ kind: "tool", name: "grep", status: "done", summary: "parse(" });
    expect(items[3]).toMatchObject({ kind: "subagent", event: "spawned", nickname: "Quartz", depth: 1 });
    expect(items[4]).toMatchObject({ kind: "user", text: "also check tests/" });
    expect(working.agents["quartz-id"]!.items).toMatchObject([
      { kind: "tool", name: "write", status: "awaiting-approval" },
    ]);
    expect(working.agents.lead).toBeUndefined();
  });

  it("closes an agent's turn with one footer of core's figures for it (core's turn-end), none summed", () => {
    const items = finished.agents["opal-id"]!.items;
    expect(items.every((item) => item.done)).toBe(true);
    expect(items.filter((item) => item.kind === "turn-footer")).toHaveLength(1);
    expect(items.at(-1)).toMatchObject({
      kind: "turn-footer",
      reason: "completed",
      steps: 2,
      usage: { inputTokens: 2_000, outputTokens: 100 },
      costUsd: 0.02,
      durationMs: 4_200,
    });
  });

  it("invents no turns: a lifecycle change without core's turn events adds no footer", () => {
    const statusOf = (lifecycle: "running" | "idle", at: number): SessionViewInput => ({
      type: "subagent-status-changed",
      agent: LEAD,
      childId: "opal-id",
      nickname: "Opal",
      status: lifecycle,
      child: OPAL,
      state: { lifecycle },
      at,
    });
    const state = reduceSessionView(createSessionView(), [
      ...spawned(LEAD, OPAL, 1_000),
      { type: "text-delta", agent: OPAL, delta: "mail read", at: 1_100 },
      statusOf("idle", 2_000),
      statusOf("running", 3_000),
      statusOf("idle", 4_000),
    ]);
    const items = state.agents["opal-id"]!.items;
    expect(items.map((item) => item.kind)).toEqual(["assistant"]);
    // Its events are not rewritten: the transcript is keyed by the agent and owned by it.
    expect(state.agents["opal-id"]!.owner).toEqual({ agentId: "opal-id", depth: 1 });
  });
});

describe("AgentTranscript", () => {
  it("shows the breadcrumb, the agent's figures, its transcript and the keys that steer it", () => {
    const { lastFrame, unmount } = renderAtWidth(
      <AgentTranscript
        tree={working.tree}
        agentId="opal-id"
        transcript={working.agents["opal-id"]}
        now={() => 13_000}
      />,
      80,
    );
    expect(lastFrame()).toBe(
      [
        "lead › Opal (explorer) · running · 0:12 · 1.2k · $0.012",
        "task from lead · explorer · claude-haiku-4-5-20251001",
        "  (its task was given before this app opened)",
        "∴ thinking · Where are the call sites?",
        "",
        "● I'll search first.",
        "✓ grep parse( · 200ms",
        "  │ src/a.ts:3",
        "  │ src/b.ts:9",
        "⊕ Quartz (worker) started · claude-haiku-4-5-20251001",
        "",
        "› also check tests/",
        "i send input · x stop (and its subagents) · esc back",
      ].join("\n"),
    );
    unmount();
  });

  it("names the whole path in the breadcrumb and keeps the newest items", () => {
    const deep = reduceSessionView(working, spawned(QUARTZ, MICA, 2_500));
    expect(breadcrumb(deep.tree, "mica-id")).toBe(
      "lead › Opal (explorer) › Quartz (worker) › Mica (explorer)",
    );
    const { lastFrame, unmount } = renderAtWidth(
      <AgentTranscript
        tree={deep.tree}
        agentId="opal-id"
        transcript={deep.agents["opal-id"]}
        maxItems={2}
        now={() => 13_000}
      />,
      80,
    );
    expect(lastFrame()!.split("\n").slice(0, 5)).toEqual([
      "lead › Opal (explorer) · running · 0:12 · 1.2k · $0.012",
      "task from lead · explorer · claude-haiku-4-5-20251001",
      "  (its task was given before this app opened)",
      "… 3 earlier items",
      "⊕ Quartz (worker) started · claude-haiku-4-5-20251001",
    ]);
    unmount();
  });

  it("sends input to a working agent or stops it (x), and goes back with Esc", async () => {
    const callbacks = {
      onSendInput: vi.fn(),
      onStop: vi.fn(),
      onResume: vi.fn(),
      onCopyResult: vi.fn(),
      onBack: vi.fn(),
    };
    const { stdin, unmount } = renderAtWidth(
      <AgentTranscript
        tree={working.tree}
        agentId="quartz-id"
        transcript={working.agents["quartz-id"]}
        {...callbacks}
      />,
      80,
    );
    await press(stdin, "i", "x", "r", "c", KEYS.escape);
    expect(callbacks.onSendInput).toHaveBeenCalledWith("quartz-id");
    expect(callbacks.onStop).toHaveBeenCalledWith("quartz-id");
    // Not finished, no result: resume and copy do nothing.
    expect(callbacks.onResume).not.toHaveBeenCalled();
    expect(callbacks.onCopyResult).not.toHaveBeenCalled();
    expect(callbacks.onBack).toHaveBeenCalledTimes(1);
    unmount();
  });

  it("offers resume and copy once the agent has finished, and fits 40 columns", async () => {
    const callbacks = { onSendInput: vi.fn(), onStop: vi.fn(), onResume: vi.fn(), onCopyResult: vi.fn() };
    const { lastFrame, stdin, unmount } = renderAtWidth(
      <AgentTranscript
        tree={finished.tree}
        agentId="opal-id"
        transcript={finished.agents["opal-id"]}
        now={() => 13_000}
        {...callbacks}
      />,
      40,
    );
    const lines = lastFrame()!.split("\n");
    expect(lines[0]).toBe("lead › Opal (explorer) · completed · 0:…");
    expect(lines.slice(-3)).toEqual([
      "⊖ Quartz (worker) shutdown",
      "─ 2 steps · 2.1k tokens · $0.020 · 4.2s",
      "r resume · c copy · esc back",
    ]);
    expect(widestLine(lastFrame())).toBeLessThanOrEqual(40);
    await press(stdin, "i", "x", "r", "c");
    expect(callbacks.onSendInput).not.toHaveBeenCalled();
    expect(callbacks.onStop).not.toHaveBeenCalled();
    expect(callbacks.onResume).toHaveBeenCalledWith("opal-id");
    expect(callbacks.onCopyResult).toHaveBeenCalledWith("opal-id", "Two call sites.");
    unmount();
  });
});
