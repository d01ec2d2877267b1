import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { buildLongThread } from "./__fixtures__/build-thread.js";
import { assertValidThread, validateThread } from "./validate-thread.js";

const call = (id: string): ModelMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", id, name: "read", input: {} }],
});
const result = (...ids: string[]): ModelMessage => ({
  role: "tool",
  content: ids.map((id) => ({ type: "tool-result", toolCallId: id, toolName: "read", output: "x" })),
});

describe("validateThread", () => {
  it("accepts a well-formed conversation", () => {
    expect(validateThread(buildLongThread(5))).toEqual({ ok: true, problems: [] });
  });

  it("reports an orphaned result, a missing result, a duplicate and a stray result", () => {
    const thread: ModelMessage[] = [
      { role: "user", content: "hi" },
      result("orphan"),
      call("a"),
      { role: "user", content: "interrupt" },
      call("b"),
      result("b", "b", "c"),
    ];
    expect(validateThread(thread)).toEqual({
      ok: false,
      problems: [
        "message 1: tool results (orphan) without a preceding assistant tool call",
        "message 2: tool call a has no result in the next message",
        "message 5: tool call b has 2 results",
        "message 5: tool result c has no matching call",
      ],
    });
    expect(() => assertValidThread(thread)).toThrow(/tool call a has no result/);
  });
});
