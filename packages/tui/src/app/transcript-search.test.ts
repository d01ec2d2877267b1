import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../transcript/transcript-types.js";
import { parseNotifyArgs } from "./commands/input-commands.js";
import { searchTranscript } from "./transcript-search.js";

const lead = { agentId: "lead", depth: 0 };

describe("searchTranscript", () => {
  it("finds lines of prompts, answers and notices, case-insensitively, oldest first", () => {
    const items: TranscriptItem[] = [
      { id: "1", done: true, kind: "user", text: "what is the codeword?" },
      { id: "2", done: true, kind: "assistant", agent: lead, text: "Intro.\nThe codeword is PELICAN-42." },
      { id: "3", done: true, kind: "notice", message: "pelican noted", tone: "info" },
      {
        id: "4",
        done: true,
        kind: "assistant",
        agent: { agentId: "a1", depth: 1, nickname: "scout" },
        text: "a Pelican",
      },
    ];
    expect(searchTranscript(items, "pelican")).toEqual([
      { itemId: "2", source: "assistant", excerpt: "The codeword is PELICAN-42." },
      { itemId: "3", source: "notice", excerpt: "pelican noted" },
      { itemId: "4", source: "scout", excerpt: "a Pelican" },
    ]);
    expect(searchTranscript(items, "")).toEqual([]);
    expect(searchTranscript(items, "absent")).toEqual([]);
  });

  it("cuts a long line around the match", () => {
    const text = `${"a".repeat(300)} NEEDLE ${"b".repeat(300)}`;
    const [match] = searchTranscript([{ id: "1", done: true, kind: "user", text }], "needle");
    expect(match?.excerpt).toMatch(/^…a+ NEEDLE b+…$/);
    expect(match!.excerpt.length).toBeLessThanOrEqual(162);
  });
});

describe("/notify arguments", () => {
  const off = { bell: false, desktop: false, afterMs: 5000 };
  it("reads bell|desktop on|off and after N s", () => {
    expect(parseNotifyArgs("bell", off)).toEqual({ ...off, bell: true });
    expect(parseNotifyArgs("bell on after 3 s", off)).toEqual({ ...off, bell: true, afterMs: 3000 });
    expect(parseNotifyArgs("desktop on after 10s", off)).toEqual({ ...off, desktop: true, afterMs: 10_000 });
    expect(parseNotifyArgs("bell off", { ...off, bell: true })).toEqual(off);
    expect(parseNotifyArgs("", off)).toEqual(off);
    expect(parseNotifyArgs("loud", off)).toBeUndefined();
    expect(parseNotifyArgs("after soon", off)).toBeUndefined();
  });
});
