import { describe, expect, it } from "vitest";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput } from "./transcript-types.js";
import { TranscriptView } from "./transcript-view.js";
import { CLEAR_TERMINAL, REFLOW_DEBOUNCE_MS } from "./use-reflow-on-resize.js";

const lead = { agentId: "lead", depth: 0 };
const state = (
  [
    { type: "user-prompt", text: "explain the loader", at: 0 },
    {
      type: "text-delta",
      agent: lead,
      delta:
        "The loader reads three files in order and merges them, the later ones winning over the earlier.",
      at: 0,
    },
    {
      type: "turn-end",
      agent: lead,
      reason: "completed",
      steps: 1,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: 0,
      at: 0,
    },
  ] as TranscriptInput[]
).reduce(transcriptReducer, createTranscriptState());

const settle = () => new Promise((resolve) => setTimeout(resolve, REFLOW_DEBOUNCE_MS + 100));

describe("the transcript on a resize", () => {
  it("clears the terminal and writes every finished item again at the new width", async () => {
    const view = renderAtWidth(<TranscriptView state={state} />, 80);
    expect(widestLine(view.lastFrame())).toBeGreaterThan(60);
    const before = view.frames.length;
    view.resize(40);
    await settle();
    const after = view.frames.slice(before);
    const cleared = after.indexOf(CLEAR_TERMINAL);
    expect(cleared).toBeGreaterThanOrEqual(0);
    const redrawn = after.slice(cleared + 1).join("");
    expect(redrawn).toContain("explain the loader");
    expect(redrawn).toContain("The loader reads three files");
    // The frame holds the items as first drawn, then as drawn again: the new ones fit 40 columns.
    const frame = view.lastFrame() ?? "";
    expect(widestLine(frame.slice(frame.lastIndexOf("› explain the loader")))).toBeLessThanOrEqual(40);
    view.unmount();
  });

  it("does nothing when only the height changes, or at a fixed width", async () => {
    const view = renderAtWidth(<TranscriptView state={state} />, 80);
    view.resize(80);
    await settle();
    expect(view.frames).not.toContain(CLEAR_TERMINAL);
    view.unmount();
    const fixed = renderAtWidth(<TranscriptView state={state} width={80} />, 80);
    fixed.resize(40);
    await settle();
    expect(fixed.frames).not.toContain(CLEAR_TERMINAL);
    fixed.unmount();
  });
});

describe("the live region", () => {
  it("draws at most a third of the terminal's rows of live items, counting the rest in one line", () => {
    const tools = Array.from({ length: 12 }, (_, index): TranscriptInput[] => [
      { type: "tool-call-start", agent: lead, callId: `c${index}`, name: "task", at: 0 },
      {
        type: "tool-start",
        agent: lead,
        callId: `c${index}`,
        name: "task",
        input: { description: `child ${index}` },
        at: 0,
      },
    ]).flat();
    const running = [{ type: "user-prompt", text: "fan out", at: 0 } as TranscriptInput, ...tools].reduce(
      transcriptReducer,
      createTranscriptState(),
    );
    const view = renderAtWidth(<TranscriptView state={running} />, 80);
    const frame = view.lastFrame() ?? "";
    expect(frame).toContain("… 4 more in progress above");
    expect(frame).toContain("child 11");
    expect(frame).not.toContain("child 3 ");
    view.unmount();
  });
});
