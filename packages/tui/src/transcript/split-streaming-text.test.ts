import { describe, expect, it } from "vitest";
import { safeSplitPoint } from "./split-streaming-text.js";
import { transcriptReducer } from "./transcript-reducer.js";
import { createTranscriptState } from "./transcript-state.js";
import type { TranscriptInput } from "./transcript-types.js";
import { finishedPrefixLength } from "./transcript-view.js";

const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, index) => `Paragraph ${index} says something.`).join("\n\n");

describe("safeSplitPoint", () => {
  it("leaves an answer of one block whole", () => {
    expect(safeSplitPoint("one line\nand its next line")).toBe(-1);
    expect(safeSplitPoint("one paragraph\n\n")).toBe(-1);
  });

  it("cuts after the last blank line once the next block has begun, however short the answer", () => {
    expect("one\n\ntwo\n\nthree".slice(safeSplitPoint("one\n\ntwo\n\nthree"))).toBe("three");
    const text = `${paragraphs(6)}\n\nstill strea`;
    expect(text.slice(safeSplitPoint(text))).toBe("still strea");
  });

  it("does not cut before an indented line: a list item's next paragraph, or indented code", () => {
    expect(safeSplitPoint("1. first\n\n   more of the first\n\n    code")).toBe(-1);
    const text = "1. first\n\n   more of the first\n\n2. second";
    expect(text.slice(safeSplitPoint(text))).toBe("2. second");
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
