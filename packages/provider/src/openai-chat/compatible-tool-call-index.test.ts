import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { StreamPart } from "../model/stream-part.js";
import { OpenAIChatLanguageModel } from "./openai-chat-language-model.js";

/** A compatible server that sends every tool call at index 0, told apart only by a new id. */
function chunks(): string[] {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    chunk({
      role: "assistant",
      tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":"a.ts"}' } }] }),
    chunk({
      tool_calls: [{ index: 0, id: "call_b", type: "function", function: { name: "read", arguments: "" } }],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":"b.ts"}' } }] }),
    chunk({}, "tool_calls"),
    "data: [DONE]\n\n",
  ];
}

describe("OpenAI-compatible tool calls without distinct indexes", () => {
  it("starts a new call when a new id arrives at the same index", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const line of chunks()) response.write(line);
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const model = new OpenAIChatLanguageModel({
        providerId: "groq",
        modelId: "m",
        credential: { type: "api-key", providerId: "groq", key: "k", source: "flag" },
        baseUrl: `http://127.0.0.1:${port}/v1`,
      });
      const parts: StreamPart[] = [];
      for await (const part of model.doStream({ messages: [{ role: "user", content: "read both" }] }))
        parts.push(part);
      const calls = parts.filter((part) => part.type === "tool-call");
      expect(calls.map((call) => call.type === "tool-call" && [call.id, call.input])).toEqual([
        ["call_a", { file_path: "a.ts" }],
        ["call_b", { file_path: "b.ts" }],
      ]);
    } finally {
      server.close();
    }
  });
});
