import { describe, expect, it } from "vitest";
import { compareText } from "./compare-text.js";

describe("compareText", () => {
  it("orders by code unit, independent of locale", () => {
    expect(["worker", "Explorer", "debugger", "a-b", "a"].sort(compareText)).toEqual([
      "Explorer",
      "a",
      "a-b",
      "debugger",
      "worker",
    ]);
    expect(compareText("2026-11-22T08:00:00Z", "2026-11-22T09:00:00Z")).toBeLessThan(0);
    expect(compareText("same", "same")).toBe(0);
  });
});
