import { describe, expect, it } from "vitest";
import { answerMoments } from "./app.js";

const lead = { agentId: "lead", depth: 0 };
const child = { agentId: "c1", depth: 1 };

describe("answerMoments", () => {
  it("picks the lead's first words of each step and the end of its turn, nothing else", () => {
    const urgent = answerMoments();
    const picked = [
      { type: "turn-start", agent: lead },
      { type: "step-start", agent: lead, step: 1 },
      { type: "text-delta", agent: lead, delta: "Hel" },
      { type: "text-delta", agent: lead, delta: "lo" },
      { type: "text-delta", agent: child, delta: "child words" },
      { type: "step-start", agent: lead, step: 2 },
      { type: "text-delta", agent: lead, delta: "Again" },
      { type: "turn-end", agent: lead },
      { type: "app-notice", message: "note" },
    ].map((input) => urgent(input as never));
    expect(picked).toEqual([false, false, true, false, false, false, true, true, false]);
  });
});
