import type { AgentEvent, AgentTag } from "@nyzhi/core";
import { describe, expect, it } from "vitest";
import { usageEvent } from "../test-support/usage-events.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput, TranscriptItem, TranscriptState } from "./transcript-types.js";

const lead: AgentTag = { agentId: "lead", depth: 0 };
const scout: AgentTag = { agentId: "child-1", depth: 1, nickname: "scout", role: "explorer" };
const usage = { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 };

type EventInit = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, "agent"> : never) : never;

function from(agent: AgentTag, event: EventInit, at = 0): TranscriptInput {
  return { ...event, agent, at } as TranscriptInput;
}

function run(inputs: TranscriptInput[], state: TranscriptState = createTranscriptState()): TranscriptState {
  return inputs.reduce(transcriptReducer, state);
}

/** The items without ids, inputs and timestamps: what the user sees. */
function shape(items: readonly TranscriptItem[]) {
  return items.map((item) => {
    switch (item.kind) {
      case "user":
      case "assistant":
      case "thinking":
        return { kind: item.kind, text: item.text, done: item.done };
      case "tool":
        return {
          kind: item.kind,
          name: item.name,
          status: item.status,
          summary: item.summary,
          done: item.done,
          by: item.agent.nickname,
        };
      case "diff":
        return { kind: item.kind, path: item.path, diff: item.diff };
      case "subagent":
        return { kind: item.kind, event: item.event, nickname: item.nickname, detail: item.detail };
      case "retry":
      case "notice":
      case "error":
        return { kind: item.kind, message: item.message };
      case "header":
        return { kind: item.kind, header: item.header };
      default:
        return { kind: item.kind, steps: item.steps, durationMs: item.durationMs, costUsd: item.costUsd };
    }
  });
}

describe("transcriptReducer", () => {
  it("turns a scripted turn with a subagent, a discarded retry and an edit into items", () => {
    const state = run([
      { type: "user-prompt", text: "fix the bug", at: 0 },
      from(lead, { type: "turn-start", turnId: "t1", input: "fix the bug" }, 1000),
      from(lead, { type: "step-start", step: 1 }),
      from(lead, { type: "reasoning-delta", delta: "Let me look" }),
      from(lead, { type: "text-delta", delta: "Half a sen" }),
      from(lead, {
        type: "retry",
        attempt: 1,
        maxAttempts: 3,
        waitMs: 4000,
        reason: "429 Too Many Requests: rate limit exceeded",
        discard: { text: "Half a sen", reasoning: true, toolCalls: [] },
      }),
      from(lead, { type: "text-delta", delta: "I'll ask a " }),
      from(lead, { type: "text-delta", delta: "scout." }),
      from(lead, { type: "tool-call-start", callId: "c1", name: "task" }),
      from(
        lead,
        {
          type: "tool-start",
          callId: "c1",
          name: "task",
          input: { subagent_type: "explorer", description: "find it" },
        },
        2000,
      ),
      from(lead, {
        type: "subagent-spawned",
        childId: "child-1",
        nickname: "scout",
        role: "explorer",
        depth: 1,
        unknownRole: false,
        model: "m",
      }),
      from(scout, { type: "turn-start", turnId: "t2", input: "find it" }),
      from(scout, { type: "text-delta", delta: "child text must not show" }),
      from(scout, { type: "tool-call-start", callId: "s1", name: "grep" }),
      from(scout, { type: "tool-start", callId: "s1", name: "grep", input: { pattern: "bug", path: "src" } }),
      from(scout, {
        type: "tool-end",
        callId: "s1",
        name: "grep",
        output: "src/a.ts:1: bug",
        isError: false,
        durationMs: 5,
      }),
      from(scout, {
        type: "turn-end",
        turnId: "t2",
        reason: "completed",
        steps: 1,
        usage,
        costUsd: 0,
        text: "found",
      }),
      from(lead, {
        type: "subagent-completed",
        childId: "child-1",
        nickname: "scout",
        role: "explorer",
        status: "completed",
        child: { agentId: "child-1", depth: 1 },
        state: { lifecycle: "completed" },
        usage,
        costUsd: 0.01,
      }),
      from(lead, {
        type: "tool-end",
        callId: "c1",
        name: "task",
        output: "found",
        isError: false,
        durationMs: 900,
      }),
      from(lead, { type: "step-end", step: 1, finishReason: "tool-calls", toolCalls: 1 }),
      from(lead, { type: "step-start", step: 2 }),
      from(lead, { type: "tool-call-start", callId: "c2", name: "edit" }),
      from(lead, {
        type: "tool-start",
        callId: "c2",
        name: "edit",
        input: { file_path: "src/a.ts", old_string: "bug", new_string: "fix" },
      }),
      from(lead, {
        type: "approval-requested",
        id: "approval-1",
        callId: "c2",
        tool: "edit",
        input: { file_path: "src/a.ts" },
        preview: "",
      }),
      from(lead, {
        type: "approval-resolved",
        callId: "c2",
        tool: "edit",
        approved: true,
        reason: "approved by the user",
      }),
      from(lead, {
        type: "tool-end",
        callId: "c2",
        name: "edit",
        output: "Edited src/a.ts\n@@ -1,1 +1,1 @@\n-bug\n+fix",
        isError: false,
        durationMs: 3,
        metadata: { path: "/w/src/a.ts", replaced: 1 },
      }),
      from(lead, { type: "step-end", step: 2, finishReason: "tool-calls", toolCalls: 1 }),
      from(
        lead,
        { type: "turn-end", turnId: "t1", reason: "completed", steps: 2, usage, costUsd: 0.02, text: "" },
        9500,
      ),
    ]);

    expect(shape(state.items)).toEqual([
      { kind: "user", text: "fix the bug", done: true },
      { kind: "retry", message: "rate limited, retrying in 4 s (1/3)" },
      { kind: "assistant", text: "I'll ask a scout.", done: true },
      { kind: "tool", name: "task", status: "done", summary: "explorer: find it", done: true, by: undefined },
      { kind: "subagent", event: "spawned", nickname: "scout", detail: "m" },
      { kind: "tool", name: "grep", status: "done", summary: "bug in src", done: true, by: "scout" },
      { kind: "subagent", event: "completed", nickname: "scout", detail: "completed" },
      { kind: "tool", name: "edit", status: "done", summary: "src/a.ts", done: true, by: undefined },
      { kind: "diff", path: "/w/src/a.ts", diff: "@@ -1,1 +1,1 @@\n-bug\n+fix" },
      { kind: "turn-footer", steps: 2, durationMs: 8500, costUsd: 0.02 },
    ]);
    expect(state.turnStartedAt).toBeUndefined();
  });

  it("keeps streamed text live until the step's stream ends, then marks it done", () => {
    const streaming = run([
      from(lead, { type: "turn-start", turnId: "t", input: "hi" }),
      from(lead, { type: "step-start", step: 1 }),
      from(lead, { type: "reasoning-delta", delta: "hmm" }),
      from(lead, { type: "text-delta", delta: "Hel" }),
      from(lead, { type: "text-delta", delta: "lo" }),
    ]);
    expect(shape(streaming.items)).toEqual([
      { kind: "thinking", text: "hmm", done: false },
      { kind: "assistant", text: "Hello", done: false },
    ]);
    const ended = transcriptReducer(
      streaming,
      from(lead, { type: "step-end", step: 1, finishReason: "stop", toolCalls: 0 }),
    );
    expect(ended.items.map((item) => item.done)).toEqual([true, true]);
    // A finished item keeps its identity while later items stream: memoized rows skip re-rendering.
    const more = transcriptReducer(ended, from(lead, { type: "text-delta", delta: "again" }));
    expect(more.items[1]).toBe(ended.items[1]);
  });

  it("shows each tool state: pending, running with streamed output, awaiting approval, failed, denied", () => {
    let state = run([
      from(lead, { type: "tool-call-start", callId: "a", name: "bash" }),
      from(lead, { type: "tool-call-start", callId: "b", name: "write" }),
      from(lead, { type: "tool-call-start", callId: "c", name: "bash" }),
    ]);
    expect(state.items.map((item) => item.kind === "tool" && item.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    state = run(
      [
        from(lead, {
          type: "tool-start",
          callId: "a",
          name: "bash",
          input: { command: "npm test\n--watch" },
        }),
        from(lead, { type: "tool-output", callId: "a", name: "bash", text: "line 1\n" }),
        from(lead, { type: "tool-output", callId: "a", name: "bash", text: "line 2\n" }),
        from(lead, {
          type: "approval-requested",
          id: "approval-1",
          callId: "b",
          tool: "write",
          input: { file_path: "x.ts", content: "x" },
          preview: "",
        }),
      ],
      state,
    );
    const [running, awaiting] = state.items;
    expect(running).toMatchObject({ status: "running", summary: "npm test …", output: "line 1\nline 2\n" });
    expect(awaiting).toMatchObject({ status: "awaiting-approval", summary: "x.ts" });
    state = run(
      [
        from(lead, {
          type: "tool-end",
          callId: "a",
          name: "bash",
          output: "exit 1",
          isError: true,
          durationMs: 1200,
        }),
        from(lead, {
          type: "approval-resolved",
          callId: "b",
          tool: "write",
          approved: false,
          reason: "denied by the user: wrong file",
        }),
        from(lead, {
          type: "tool-end",
          callId: "b",
          name: "write",
          output: "Tool `write` was denied",
          isError: true,
          durationMs: 0,
          refused: "denied",
        }),
        from(lead, {
          type: "turn-end",
          turnId: "t",
          reason: "aborted",
          steps: 1,
          usage,
          costUsd: 0,
          text: "",
        }),
      ],
      state,
    );
    expect(state.items.slice(0, 3)).toMatchObject([
      { status: "failed", durationMs: 1200, done: true },
      { status: "denied", reason: "denied by the user: wrong file", done: true },
      { status: "failed", reason: "interrupted", done: true },
    ]);
  });

  it("shows each child under the task call that started it, and each diff under its edit, when calls run side by side", () => {
    const task = (callId: string, description: string) =>
      from(lead, {
        type: "tool-start",
        callId,
        name: "task",
        input: { subagent_type: "explorer", description },
      });
    const spawned = (callId: string, childId: string, nickname: string) =>
      from(lead, {
        type: "subagent-spawned",
        childId,
        nickname,
        role: "explorer",
        depth: 1,
        unknownRole: false,
        model: "m",
        callId,
      });
    const edit = (callId: string, path: string) =>
      from(lead, {
        type: "tool-start",
        callId,
        name: "edit",
        input: { file_path: path, old_string: "a", new_string: "b" },
      });
    const edited = (callId: string, path: string) =>
      from(lead, {
        type: "tool-end",
        callId,
        name: "edit",
        output: `Edited ${path}`,
        isError: false,
        durationMs: 1,
      });
    const state = run([
      from(lead, { type: "step-start", step: 1 }),
      task("t1", "look at a"),
      task("t2", "look at b"),
      spawned("t2", "c2", "bee"),
      spawned("t1", "c1", "ant"),
      edit("e1", "one.txt"),
      edit("e2", "two.txt"),
      edited("e2", "two.txt"),
      edited("e1", "one.txt"),
    ]);
    expect(
      shape(state.items).map((item) =>
        item.kind === "tool"
          ? `${item.name} ${item.summary}`
          : item.kind === "diff"
            ? `diff ${item.path}`
            : `⊕ ${"nickname" in item ? item.nickname : ""}`,
      ),
    ).toEqual([
      "task explorer: look at a",
      "⊕ ant",
      "task explorer: look at b",
      "⊕ bee",
      "edit one.txt",
      "diff one.txt",
      "edit two.txt",
      "diff two.txt",
    ]);
  });

  it("appends what a call caused once its row is already in the scrollback", () => {
    const state = run([
      from(lead, { type: "tool-start", callId: "s", name: "spawn_agent", input: { message: "go" } }),
      from(lead, {
        type: "tool-end",
        callId: "s",
        name: "spawn_agent",
        output: "{}",
        isError: false,
        durationMs: 1,
      }),
      from(lead, { type: "text-delta", delta: "waiting" }),
      from(lead, {
        type: "subagent-spawned",
        childId: "c",
        nickname: "late",
        role: "worker",
        depth: 1,
        unknownRole: false,
        model: "m",
        callId: "s",
      }),
    ]);
    expect(shape(state.items).map((item) => item.kind)).toEqual(["tool", "assistant", "subagent"]);
  });

  it("computes a diff from the old and new text when the output carries none", () => {
    const state = run([
      from(lead, {
        type: "tool-start",
        callId: "e",
        name: "edit",
        input: { file_path: "a.txt", old_string: "one\ntwo", new_string: "one\n2" },
      }),
      from(lead, {
        type: "tool-end",
        callId: "e",
        name: "edit",
        output: "Edited a.txt",
        isError: false,
        durationMs: 1,
      }),
    ]);
    expect(shape(state.items).at(-1)).toEqual({
      kind: "diff",
      path: "a.txt",
      diff: "@@ -1,2 +1,2 @@\n one\n-two\n+2",
    });
  });

  it("queues prompts typed during a turn and delivers them in order", () => {
    let state = run([
      { type: "prompt-queued", text: "first" },
      { type: "prompt-queued", text: "second" },
    ]);
    expect(state.queued.map((q) => q.text)).toEqual(["first", "second"]);
    state = transcriptReducer(state, { type: "queued-prompt-delivered" });
    expect(state.queued.map((q) => q.text)).toEqual(["second"]);
    expect(shape(state.items)).toEqual([{ kind: "user", text: "first", done: true }]);
    state = run(
      [{ type: "app-notice", message: "Unknown command /xyz — /help lists them" }, { type: "queue-cleared" }],
      state,
    );
    expect(state.queued).toEqual([]);
    expect(shape(state.items).at(-1)).toEqual({
      kind: "notice",
      message: "Unknown command /xyz — /help lists them",
    });
    const cleared = transcriptReducer(state, { type: "transcript-cleared" });
    expect(cleared.items).toEqual([]);
    expect(cleared.epoch).toBe(state.epoch + 1);
  });

  it("expands an item; the session's totals are not a transcript's (the session view keeps them)", () => {
    const state = run([
      usageEvent(lead, 1, usage, 0.01),
      usageEvent(scout, 1, usage, 0.005),
      from(lead, { type: "reasoning-delta", delta: "a\nb" }),
    ]);
    expect(state).not.toHaveProperty("totals");
    const id = state.items[0]!.id;
    expect(transcriptReducer(state, { type: "item-expanded", id, expanded: true }).items[0]).toMatchObject({
      expanded: true,
    });
  });
});

describe("events a transcript shows nothing of", () => {
  it("keep its state object, so the view reading it does not redraw", () => {
    const state = run([from(lead, { type: "text-delta", delta: "Looking." })]);
    const ignored = [
      from(scout, { type: "text-delta", delta: "a child's words" }),
      from(scout, { type: "reasoning-delta", delta: "a child's thoughts" }),
      from(lead, { type: "tool-call-delta", callId: "c1", delta: '{"pa' }),
      usageEvent(scout, 1, usage, 0.01),
      usageEvent(lead, 1, usage, 0.01),
    ];
    for (const input of ignored) expect(transcriptReducer(state, input)).toBe(state);
    expect(transcriptReducer(state, from(lead, { type: "text-delta", delta: " More." }))).not.toBe(state);
  });
});
