import { describe, expect, it } from "vitest";
import { readPromptModes, withoutModePrefixes } from "./prompt-modes.js";

describe("readPromptModes", () => {
  it("plan: runs one prompt in plan mode and is removed", () => {
    expect(readPromptModes("plan: add a cache")).toMatchObject({ text: "add a cache", planMode: true });
  });

  it("think:, deep: and ultra: ask for on, high/16384 and xhigh/32768 (spec edges §3.8)", () => {
    expect(readPromptModes("think: why").thinking).toEqual({ effort: "on" });
    expect(readPromptModes("Deep: why").thinking).toEqual({ effort: "high", budgetTokens: 16384 });
    expect(readPromptModes("ultra: why").thinking).toEqual({ effort: "xhigh", budgetTokens: 32768 });
  });

  it("matches at the start or after a space only, case-insensitively, and combines", () => {
    expect(readPromptModes("see http://x/plan:y").planMode).toBe(false);
    const both = readPromptModes("fix it PLAN: deep: carefully");
    expect(both).toMatchObject({ text: "fix it carefully", planMode: true, thinkingLevel: "high" });
  });

  it("leaves a prompt without prefixes exactly as typed", () => {
    expect(readPromptModes("line one\n\n\nsummarise it\n").text).toBe("line one\n\n\nsummarise it\n");
  });

  it("reads the first text part of a multi-part input", () => {
    const { input, modes } = withoutModePrefixes([{ type: "text", text: "deep: look" }]);
    expect(input).toEqual([{ type: "text", text: "look" }]);
    expect(modes.thinkingLevel).toBe("high");
  });
});
