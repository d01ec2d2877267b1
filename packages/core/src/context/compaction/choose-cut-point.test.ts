import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { buildLongThread, buildSingleTurnThread } from "./__fixtures__/build-thread.js";
import { chooseCutIndex } from "./choose-cut-point.js";

describe("chooseCutIndex", () => {
  it("prefers the start of a user turn, keeping more", () => {
    // 40 messages, aim 34 → the user message at 32.
    expect(chooseCutIndex(buildLongThread(10), 6)).toBe(32);
    expect(chooseCutIndex(buildLongThread(10), 4)).toBe(36);
  });

  it("never starts the kept part with a tool result", () => {
    const thread = buildSingleTurnThread(10);
    for (let keep = 0; keep < thread.length; keep++) {
      const cut = chooseCutIndex(thread, keep);
      expect(cut).toBeGreaterThan(0);
      expect(thread[cut!]?.role).not.toBe("tool");
    }
  });

  it("has no cut for a one-message thread", () => {
    const thread: ModelMessage[] = [{ role: "user", content: "x" }];
    expect(chooseCutIndex(thread, 4)).toBeUndefined();
  });
});
