import { describe, expect, it } from "vitest";
import { thinkingForLevel, thinkingLevelsOf } from "./thinking-levels.js";

describe("thinking levels", () => {
  it("offers off first, then the model's levels; none without support; Gemini has no off", () => {
    expect(thinkingLevelsOf(undefined)).toEqual([]);
    const effort = thinkingLevelsOf({ kind: "effort", levels: ["low", "medium", "high"], default: "medium" });
    expect(effort.map((choice) => choice.level)).toEqual(["off", "low", "medium", "high"]);
    expect(effort[2]?.description).toContain("(default)");
    const budget = thinkingLevelsOf({ kind: "budget", max: 10_000, default: 5000 });
    expect(budget.map((choice) => choice.level)).toEqual(["off", "low", "medium", "max"]);
    const gemini = thinkingLevelsOf({ kind: "levels", levels: ["low", "high"], default: "high" });
    expect(gemini.map((choice) => choice.level)).toEqual(["low", "high"]);
  });

  it("maps levels to effort and budget (spec edges §3.8)", () => {
    expect(thinkingForLevel("off")).toBeUndefined();
    expect(thinkingForLevel("low")).toEqual({ effort: "low", budgetTokens: 4096 });
    expect(thinkingForLevel("max")).toEqual({ effort: "max", budgetTokens: 32768 });
    expect(thinkingForLevel("on", 9000)).toEqual({ effort: "on", budgetTokens: 9000 });
  });
});
