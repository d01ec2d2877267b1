import type { ModelMessage } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { compactionTarget, estimateTokens, shouldCompact } from "./estimate-tokens.js";

describe("estimateTokens", () => {
  it("counts a message again once a part is added to it", () => {
    const message: ModelMessage = { role: "assistant", content: [{ type: "text", text: "abcd" }] };
    const before = estimateTokens(undefined, [message]);
    expect(estimateTokens(undefined, [message])).toBe(before);
    (message.content as { type: "text"; text: string }[]).push({ type: "text", text: "efghefgh" });
    expect(estimateTokens(undefined, [message])).toBe(before + 3);
  });

  it("counts chars/4 + 1 per text, 4 per message, 1000 per image, tool name + JSON input", () => {
    const messages: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "12345678" },
          { type: "image", mediaType: "image/png", data: "AAAA" },
        ],
      },
      { role: "assistant", content: [{ type: "tool-call", id: "1", name: "read", input: { a: 1 } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "1", toolName: "read", output: "x".repeat(40) }],
      },
    ];
    // system "abcd": 1 + 1; user: 4 + (2 + 1) + 1000; call: 4 + ceil(len('read{"a":1}')=11 / 4)=3 + 1; result: 4 + 10 + 1
    expect(estimateTokens("abcd", messages)).toBe(2 + 1007 + 8 + 15);
    expect(estimateTokens([{ text: "abcd" }, { text: "efgh" }], [])).toBe(Math.ceil(10 / 4) + 1);
  });
});

describe("shouldCompact", () => {
  it("compares the estimate with window × threshold (default 0.85)", () => {
    expect(compactionTarget({ contextWindow: 1000 })).toBe(850);
    expect(shouldCompact({ estimate: 850, contextWindow: 1000 })).toBe(false);
    expect(shouldCompact({ estimate: 851, contextWindow: 1000 })).toBe(true);
    expect(shouldCompact({ estimate: 600, contextWindow: 1000, threshold: 0.5 })).toBe(true);
    expect(shouldCompact({ estimate: 600, contextWindow: 0 })).toBe(false);
  });
});
