import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { buildSharedContext, truncateCodePoints } from "./build-shared-context.js";

describe("buildSharedContext", () => {
  it("sorts and dedupes changes and keeps only open todos", () => {
    const shared = buildSharedContext({
      thread: [],
      changedFiles: ["/p/b.ts", "/p/a.ts", "/p/b.ts"],
      todos: [
        { id: "1", content: "done", status: "completed" },
        { id: "2", content: "doing", status: "in_progress" },
        { id: "3", content: "dropped", status: "cancelled" },
        { id: "4", content: "next", status: "pending" },
      ],
      projectRoot: "/p",
      projectMemory: "memo",
    });
    expect(shared).toEqual({
      recentChanges: ["/p/a.ts", "/p/b.ts"],
      activeTodos: [
        { id: "2", content: "doing", status: "in_progress" },
        { id: "4", content: "next", status: "pending" },
      ],
      conversationSummary: [],
      projectRoot: "/p",
      projectMemory: "memo",
    });
  });

  it("summarises the last 5 text messages, newest first, cut by code points", () => {
    const long = "é".repeat(150) + "😀".repeat(100);
    const thread: ModelMessage[] = [
      { role: "user", content: "first" },
      { role: "assistant", content: "second" },
      { role: "user", content: "third" },
      { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "read", input: {} }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: "x" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hmm" },
          { type: "text", text: "fourth\nline" },
        ],
      },
      { role: "user", content: [{ type: "text", text: long }] },
      { role: "assistant", content: "sixth" },
    ];
    const { conversationSummary } = buildSharedContext({ thread, changedFiles: [], todos: [] });
    expect(conversationSummary).toEqual([
      "[assistant] sixth",
      `[user] ${"é".repeat(150)}${"😀".repeat(50)}…`,
      "[assistant] fourth line",
      "[user] third",
      "[assistant] second",
    ]);
  });

  it("truncates without splitting surrogate pairs and marks only real cuts", () => {
    expect(truncateCodePoints("😀😀😀", 2)).toBe("😀😀…");
    expect(truncateCodePoints("abc", 3)).toBe("abc");
  });
});
