import { describe, expect, it } from "vitest";
import { addUsage, emptyUsage, sumUsage } from "./usage.js";

describe("usage helpers", () => {
  it("sums field by field and keeps reasoning tokens only when reported", () => {
    const first = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 };
    const second = {
      inputTokens: 7,
      outputTokens: 3,
      cacheReadTokens: 0,
      cacheWriteTokens: 4,
      reasoningTokens: 2,
    };
    expect(sumUsage([first, second])).toEqual({
      inputTokens: 17,
      outputTokens: 8,
      cacheReadTokens: 2,
      cacheWriteTokens: 5,
      reasoningTokens: 2,
    });
    expect(addUsage(first, first)).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      cacheReadTokens: 4,
      cacheWriteTokens: 2,
    });
    expect(sumUsage([])).toEqual(emptyUsage());
  });
});
