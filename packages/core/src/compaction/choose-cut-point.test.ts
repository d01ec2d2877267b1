import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { buildLongThread, buildReadStep, buildSingleTurnThread } from "./__fixtures__/build-thread.js";
import { chooseCutIndex, latestUserRun, splitForCompaction } from "./choose-cut-point.js";
import { summaryMessage } from "./summary-prompt.js";
import { validateThread } from "./validate-thread.js";

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

describe("splitForCompaction", () => {
  it("keeps the turn's request verbatim when mail arrived later in the turn", () => {
    const request: ModelMessage = { role: "user", content: "read every file" };
    const mail: ModelMessage = { role: "user", content: "teammate: also check the README" };
    const thread: ModelMessage[] = [
      request,
      ...buildReadStep(1),
      ...buildReadStep(2),
      mail,
      ...buildReadStep(3),
      ...buildReadStep(4),
      ...buildReadStep(5),
    ];
    // Without the request's identity, only the latest user run (the mail) is pinned.
    expect(splitForCompaction(thread, 2)!.summarised).toContain(request);
    const split = splitForCompaction(thread, 2, request)!;
    expect(split.summarised).not.toContain(request);
    expect(split.summarised).not.toContain(mail);
    expect(split.kept.slice(0, 2)).toEqual([request, mail]);
    expect(validateThread([summaryMessage("s", "/tmp/h.jsonl"), ...split.kept])).toEqual({
      ok: true,
      problems: [],
    });
  });

  it("keeps the request of a long turn verbatim at the head of the kept part, for every keep count", () => {
    const thread = buildSingleTurnThread(10);
    const request = thread[0]!;
    for (let keep = 0; keep < thread.length; keep++) {
      const split = splitForCompaction(thread, keep)!;
      expect(split.kept[0]).toBe(request);
      expect(split.summarised).not.toContain(request);
      expect(split.summarised.length + split.kept.length).toBe(thread.length);
      // What the next request carries: the summary, then the kept part; still well paired.
      expect(validateThread([summaryMessage("s", "/h"), ...split.kept]).ok).toBe(true);
      expect(split.kept[1]?.role).not.toBe("tool");
    }
    // The cut at a step boundary is unchanged; the request is carried past it.
    expect(splitForCompaction(thread, 6)).toMatchObject({ cut: 15, pinned: [0] });
  });

  it("pins nothing when the cut already keeps the latest request", () => {
    const thread = buildLongThread(10);
    const split = splitForCompaction(thread, 6)!;
    expect(split).toEqual({ cut: 32, summarised: thread.slice(0, 32), kept: thread.slice(32), pinned: [] });
  });

  it("keeps user messages that arrived right after the request, and never pins a summary", () => {
    const summary = summaryMessage("earlier work", "/h/s-1.jsonl");
    const thread: ModelMessage[] = [
      summary,
      { role: "user", content: "Read every file" },
      { role: "user", content: "[teammate] also read the docs" },
      ...[0, 1, 2, 3, 4].flatMap((step) => buildReadStep(step, 100)),
    ];
    expect(latestUserRun(thread)).toEqual([1, 2]);
    const split = splitForCompaction(thread, 4)!;
    expect(split.pinned).toEqual([1, 2]);
    expect(split.kept.slice(0, 2)).toEqual(thread.slice(1, 3));
    expect(split.summarised[0]).toBe(summary);
    expect(latestUserRun([summary, ...buildReadStep(0)])).toEqual([]);
  });
});
