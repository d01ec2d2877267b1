import { describe, expect, it } from "vitest";
import { renderAtWidth, widestLine } from "../test-support/render-at-width.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput } from "./transcript-types.js";
import { TranscriptView } from "./transcript-view.js";

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

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const CLEAR_SCREEN = /\x1b\[[23]J/;

describe("the transcript on a resize", () => {
  it("never clears the screen or the scrollback nor writes finished items again; live ones take the new width", async () => {
    const live = transcriptReducer(state, { type: "text-delta", agent: lead, delta: "x".repeat(70), at: 0 });
    const view = renderAtWidth(<TranscriptView state={live} />, 80);
    const before = view.frames.length;
    view.resize(40);
    await settle();
    const after = view.frames.slice(before).join("");
    expect(after).not.toMatch(CLEAR_SCREEN);
    // ink-testing-library draws every finished item in each frame: they are there once.
    expect(view.lastFrame()!.split("explain the loader")).toHaveLength(2);
    const liveRegion = view.lastFrame()!.slice(view.lastFrame()!.indexOf("xxx"));
    expect(widestLine(liveRegion)).toBeLessThanOrEqual(40);
    view.unmount();
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
