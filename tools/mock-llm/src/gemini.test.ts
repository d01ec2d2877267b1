import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockLlm, startMockLlm } from "./index.js";

let mock: MockLlm;

beforeEach(async () => {
  mock = await startMockLlm({ scenario: { rules: [] } });
});

afterEach(async () => {
  await mock.close();
});

interface GeminiChunk {
  candidates: { content: { parts: Record<string, unknown>[]; role: string }; finishReason?: string }[];
  usageMetadata?: Record<string, number>;
}

async function readSse(response: Response): Promise<GeminiChunk[]> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => JSON.parse(event.slice("data: ".length)) as GeminiChunk);
}

const body = {
  systemInstruction: { parts: [{ text: "You are nyzhi." }] },
  tools: [{ functionDeclarations: [{ name: "read_file", parameters: { type: "object" } }] }],
  contents: [
    { role: "user", parts: [{ text: "read a.ts" }] },
    { role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "a.ts" } } }] },
    { role: "user", parts: [{ functionResponse: { name: "read_file", response: { result: "export {}" } } }] },
  ],
};

describe("Gemini generateContent", () => {
  it("streams thought parts, text parts and a function call, with usage on the last chunk", async () => {
    mock.setScenario({
      rules: [
        {
          match: { api: "gemini", lastIsToolResult: true },
          response: {
            reasoning: ["Hmm."],
            text: ["It ", "is ", "empty."],
            toolCalls: [{ name: "read_file", arguments: { path: "b.ts" } }],
            usage: { inputTokens: 30, outputTokens: 6 },
          },
        },
      ],
    });
    const response = await fetch(
      `${mock.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse&key=test`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const chunks = await readSse(response);
    const parts = chunks.flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
    expect(parts).toEqual([
      { text: "Hmm.", thought: true },
      { text: "It " },
      { text: "is " },
      { text: "empty." },
      { functionCall: { name: "read_file", args: { path: "b.ts" } } },
    ]);
    const last = chunks.at(-1);
    expect(last?.candidates[0]?.finishReason).toBe("STOP");
    expect(last?.usageMetadata).toMatchObject({
      promptTokenCount: 30,
      candidatesTokenCount: 6,
      totalTokenCount: 36,
    });
  });

  it("records the model from the path, system instruction, tool calls and results", async () => {
    mock.setScenario({ rules: [{ response: { text: "ok" } }] });
    const response = await fetch(`${mock.url}/v1/models/gemini-2.5-flash:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as GeminiChunk;
    expect(json.candidates[0]?.content.parts).toEqual([{ text: "ok" }]);
    const [request] = mock.requests;
    expect(request).toMatchObject({
      api: "gemini",
      model: "gemini-2.5-flash",
      stream: false,
      system: "You are nyzhi.",
      toolsOffered: ["read_file"],
    });
    expect(request?.messages).toEqual([
      { role: "user", text: "read a.ts" },
      {
        role: "assistant",
        text: "",
        toolCalls: [{ id: "read_file", name: "read_file", arguments: '{"path":"a.ts"}' }],
      },
      { role: "tool", text: "", toolResults: [{ id: "read_file", content: '{"result":"export {}"}' }] },
    ]);
  });

  it("streams a JSON array when alt=sse is not asked for", async () => {
    mock.setScenario({ rules: [{ response: { text: ["a", "b"] } }] });
    const response = await fetch(`${mock.url}/v1beta/models/g:streamGenerateContent`, {
      method: "POST",
      body: "{}",
    });
    const chunks = (await response.json()) as GeminiChunk[];
    expect(chunks.map((chunk) => chunk.candidates[0]?.content.parts)).toEqual([
      [{ text: "a" }],
      [{ text: "b" }],
    ]);
  });

  it("answers errors in Google's shape", async () => {
    mock.setScenario({ rules: [{ response: { fault: { type: "status", status: 429, retryAfter: 4 } } }] });
    const response = await fetch(`${mock.url}/v1beta/models/g:generateContent`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("4");
    expect(await response.json()).toEqual({
      error: { code: 429, message: "mock-llm: rate limited", status: "RESOURCE_EXHAUSTED" },
    });
  });
});
