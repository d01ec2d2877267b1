import { describe, expect, it } from "vitest";
import { safeSplitPoint } from "./split-streaming-text.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput } from "./transcript-types.js";
import { finishedPrefixLength } from "./transcript-view.js";

const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, index) => `Paragraph ${index} says something.`).join("\n\n");

describe("safeSplitPoint", () => {
  it("leaves a short answer whole", () => {
    expect(safeSplitPoint("one\n\ntwo\n\nthree")).toBe(-1);
  });

  it("cuts a long answer after its last blank line", () => {
    const text = `${paragraphs(6)}\n\nstill strea`;
    expect(text.slice(safeSplitPoint(text))).toBe("still strea");
  });

  it("never cuts inside a code fence", () => {
    const code = Array.from({ length: 10 }, (_, index) => `line ${index}`).join("\n\n");
    const text = `Intro.\n\n\`\`\`ts\n${code}\n`;
    expect(text.slice(0, safeSplitPoint(text))).toBe("Intro.\n\n");
  });
});

describe("a long streaming answer", () => {
  const lead = { agentId: "lead", depth: 0 };
  const deltas = `${paragraphs(12)}\n\nThe end`.match(/[\s\S]{1,7}/g) ?? [];
  const inputs: TranscriptInput[] = [
    { type: "user-prompt", text: "tell me", at: 0 },
    { type: "step-start", agent: lead, step: 1, at: 0 },
    ...deltas.map((delta): TranscriptInput => ({ type: "text-delta", agent: lead, delta, at: 0 })),
  ];
  const state = inputs.reduce(transcriptReducer, createTranscriptState());

  it("moves its finished blocks to the scrollback while the rest streams", () => {
    const answer = state.items.filter((item) => item.kind === "assistant");
    expect(answer.length).toBeGreaterThan(1);
    expect(finishedPrefixLength(state.items)).toBe(state.items.length - 1);
    const live = answer.at(-1)!;
    expect(live).toMatchObject({ done: false, continued: true });
    expect(live.kind === "assistant" && live.text.length).toBeLessThan(400);
  });

  it("keeps every character, in order", () => {
    const text = state.items.flatMap((item) => (item.kind === "assistant" ? [item.text] : [])).join("\n\n");
    expect(text).toBe(`${paragraphs(12)}\n\nThe end`);
  });
});
