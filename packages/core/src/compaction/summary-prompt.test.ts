import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import {
  buildSummaryPrompt,
  renderTranscript,
  USER_TEXT_BUDGET_CHARS,
  userTextLimit,
} from "./summary-prompt.js";

/** A long piped spec: numbered lines, so a cut shows which ones went. */
const spec = (lines: number, tag = "spec") =>
  Array.from(
    { length: lines },
    (_, index) => `${tag} line ${index + 1}: the parser must handle case ${index + 1}.`,
  ).join("\n");

describe("renderTranscript", () => {
  it("keeps an older user request whole, however long, while it fits the budget", () => {
    const request = spec(300); // ~15,000 characters, far past the old 3,000-character cap
    expect(request.length).toBeGreaterThan(12_000);
    const transcript = renderTranscript([
      { role: "user", content: request },
      { role: "assistant", content: "On it." },
      { role: "user", content: [{ type: "text", text: spec(200, "later") }] },
    ]);
    expect(transcript).toContain(request);
    expect(transcript).toContain("spec line 300: the parser must handle case 300.");
    expect(transcript).toContain("later line 200:");
    expect(transcript).not.toContain("[cut]");
  });

  it("past the budget, cuts only the longest user texts, keeping head and tail", () => {
    const huge = spec(2000); // ~100,000 characters
    const short = "Also keep the CLI flags as they are.";
    const transcript = renderTranscript([
      { role: "user", content: huge },
      { role: "assistant", content: "ok" },
      { role: "user", content: short },
    ]);
    expect(transcript).toContain(short);
    expect(transcript).toContain("spec line 1: the parser");
    expect(transcript).toContain("spec line 2000: the parser must handle case 2000.");
    expect(transcript).toMatch(/… \[\d+ characters cut\] …/);
    expect(transcript.length).toBeLessThan(USER_TEXT_BUDGET_CHARS + 200);
    expect(transcript.length).toBeGreaterThan(USER_TEXT_BUDGET_CHARS - 200);
  });

  it("shares the budget so every text shorter than the cap stays whole", () => {
    expect(userTextLimit([10, 20, 30], 100)).toBe(Number.POSITIVE_INFINITY);
    // 10 and 20 fit whole; the other two share the remaining 70 000.
    expect(userTextLimit([10, 20, 50_000, 90_000], 70_030)).toBe(35_000);
    // Never below the floor, however many texts share it.
    expect(userTextLimit(Array(100).fill(5000), 40_000)).toBe(1000);
  });

  it("marks a request kept verbatim after the summary and leaves it out of the stats", () => {
    const request: ModelMessage = { role: "user", content: spec(300) };
    const step: ModelMessage = { role: "assistant", content: "Reading." };
    const prompt = buildSummaryPrompt([request, step], {
      estimatedTokens: 10,
      keptVerbatim: new Set([request]),
    });
    expect(prompt).toContain(
      "## User (latest request; it stays verbatim after your summary, shown shortened here)",
    );
    expect(prompt).toContain("spec line 1:");
    expect(prompt).not.toContain("spec line 300:");
    expect(prompt).toContain("Stats: 1 messages");
  });
});
