import { describe, expect, it } from "vitest";
import { retryMessage } from "./transcript-state.js";

describe("retryMessage", () => {
  it("drops the reason's own full stop before the comma", () => {
    const reason = "The provider answered an error (500: mock internal server error).";
    expect(retryMessage({ attempt: 1, maxAttempts: 3, waitMs: 2000, reason })).toBe(
      "The provider answered an error (500: mock internal server error), retrying in 2 s (1/3)",
    );
  });

  it("says rate limited for a 429", () => {
    expect(retryMessage({ attempt: 2, maxAttempts: 3, waitMs: 4000, reason: "429 too many requests" })).toBe(
      "rate limited, retrying in 4 s (2/3)",
    );
  });
});
