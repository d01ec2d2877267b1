import type { AgentTag } from "@nyzhi/core";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { InputEditor } from "../input/input-editor.js";
import { StatusFooter } from "../status/status-footer.js";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput, TranscriptState } from "./transcript-types.js";
import { finishedPrefixLength, TranscriptView } from "./transcript-view.js";

const lead: AgentTag = { agentId: "lead", depth: 0 };
const scout: AgentTag = { agentId: "k", depth: 1, nickname: "scout", role: "explorer" };
const usage = { inputTokens: 12_000, outputTokens: 345, cacheReadTokens: 0, cacheWriteTokens: 0 };

function build(inputs: object[]): TranscriptState {
  return inputs.reduce<TranscriptState>(
    (state, input) => transcriptReducer(state, { at: 0, ...input } as TranscriptInput),
    createTranscriptState(),
  );
}

const SCRIPT = [
  { type: "user-prompt", text: "Refactor the parser and explain what changed in detail" },
  { type: "turn-start", agent: lead, turnId: "t", input: "x", at: 0 },
  { type: "reasoning-delta", agent: lead, delta: "First I look at the parser.\nThen I edit it." },
  {
    type: "text-delta",
    agent: lead,
    delta: "I'll **edit** `parser.ts` now:\n\n- keep the API\n- speed it up",
  },
  { type: "tool-call-start", agent: lead, callId: "c1", name: "edit" },
  {
    type: "tool-start",
    agent: lead,
    callId: "c1",
    name: "edit",
    input: { file_path: "packages/core/src/very/long/path/to/parser.ts", old_string: "a", new_string: "b" },
  },
  {
    type: "tool-end",
    agent: lead,
    callId: "c1",
    name: "edit",
    output:
      "Edited parser.ts\n@@ -1,1 +1,1 @@\n-const value = parseEverythingSlowlyWithAVeryLongName(input);\n+const value = parseFast(input);",
    isError: false,
    durationMs: 12,
    metadata: { path: "packages/core/src/very/long/path/to/parser.ts" },
  },
  {
    type: "subagent-spawned",
    agent: lead,
    childId: "k",
    nickname: "scout",
    role: "explorer",
    depth: 1,
    unknownRole: false,
    model: "claude-haiku",
  },
  {
    type: "tool-start",
    agent: scout,
    callId: "s1",
    name: "bash",
    input: { command: "rg --files packages | head -200 | sort" },
  },
  { type: "retry", agent: lead, attempt: 1, maxAttempts: 3, waitMs: 4000, reason: "429 rate limit" },
  { type: "notice", agent: lead, message: "Compacted the conversation: 120k → 18k tokens" },
  { type: "error", agent: lead, message: "The model returned an empty answer", code: "x", fatal: false },
];

describe("TranscriptView", () => {
  it("renders every kind of item, finished ones first, live ones below", () => {
    const state = build([
      ...SCRIPT,
      {
        type: "tool-end",
        agent: scout,
        callId: "s1",
        name: "bash",
        output: "a.ts\nb.ts",
        isError: false,
        durationMs: 40,
      },
      {
        type: "subagent-completed",
        agent: lead,
        childId: "k",
        nickname: "scout",
        role: "explorer",
        status: "completed",
        child: { agentId: "k", depth: 1 },
        state: { lifecycle: "completed" },
        usage,
        costUsd: 0,
      },
      {
        type: "turn-end",
        agent: lead,
        turnId: "t",
        reason: "completed",
        steps: 2,
        usage,
        costUsd: 0.042,
        text: "",
        at: 8400,
      },
    ]);
    expect(finishedPrefixLength(state.items)).toBe(state.items.length);
    const frame = render(<TranscriptView state={state} width={100} />).lastFrame()!;
    for (const expected of [
      "› Refactor the parser and explain what changed in detail",
      "∴ thinking · Then I edit it. (+1 lines)",
      "● I'll edit parser.ts now:",
      "  • keep the API",
      "✓ edit packages/core/src/very/long/path/to/parser.ts · 12ms",
      "  packages/core/src/very/long/path/to/parser.ts +1 -1",
      "  1 + const value = parseFast(input);",
      "⊕ scout (explorer) started · claude-haiku",
      "✓ [scout] bash rg --files packages | head -200 | sort · 40ms",
      "⊖ scout (explorer) completed",
      "↻ rate limited, retrying in 4 s (1/3)",
      "※ Compacted the conversation: 120k → 18k tokens",
      "✗ The model returned an empty answer",
      "─ 2 steps · 12k tokens · $0.042 · 8.4s",
    ]) {
      expect(frame).toContain(expected);
    }
  });

  it("keeps a running subagent row live and lists queued prompts under it", () => {
    const state = build([...SCRIPT, { type: "prompt-queued", text: "then run the tests" }]);
    const split = finishedPrefixLength(state.items);
    expect(state.items[split]).toMatchObject({ kind: "tool", name: "bash", status: "running" });
    const frame = render(<TranscriptView state={state} width={100} />).lastFrame()!;
    expect(frame).toContain("[scout] bash rg --files packages");
    expect(frame.trimEnd().endsWith("⏳ queued: then run the tests")).toBe(true);
  });

  it("streams into the live message without repeating the finished items", () => {
    let state = build([
      { type: "user-prompt", text: "hello" },
      { type: "text-delta", agent: lead, delta: "Hi" },
    ]);
    const view = render(<TranscriptView state={state} width={60} />);
    for (const delta of [" there", ", how", " are you?"]) {
      state = transcriptReducer(state, { type: "text-delta", agent: lead, delta });
      view.rerender(<TranscriptView state={state} width={60} />);
    }
    const frame = view.lastFrame()!;
    expect(frame).toContain("● Hi there, how are you?");
    expect(frame.match(/› hello/g)).toHaveLength(1);
  });

  it("is readable at 40 columns: no line of transcript, editor or footer is wider", () => {
    const state = build(SCRIPT);
    const view = renderAtWidth(
      <>
        <TranscriptView state={state} />
        <InputEditor onSubmit={() => {}} />
        <StatusFooter model="claude-sonnet-4-5" trust="off" mode="idle" usage={usage} costUsd={0.042} />
      </>,
      40,
    );
    const frame = view.lastFrame()!;
    expect(widestLine(frame)).toBeLessThanOrEqual(40);
    expect(frame).toContain("parser.ts +1 -1");
    expect(frame).toContain("enter send");
    expect(frame).toContain("ctrl+k palette");
  });
});
