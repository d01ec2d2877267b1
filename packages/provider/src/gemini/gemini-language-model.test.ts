import { describe, expect, it } from "vitest";
import { GeminiLanguageModel } from "./gemini-language-model.js";

describe("GeminiLanguageModel request body", () => {
  const model = new GeminiLanguageModel({
    providerId: "gemini",
    modelId: "gemini-3-flash",
    credential: undefined,
    baseUrl: "http://127.0.0.1:1/v1beta",
  });

  it("maps roles, tool calls with their thought signature, results, schema and thinking", () => {
    const body = model.buildRequestBody({
      system: "sys",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", mediaType: "image/png", data: "AAA" },
          ],
        },
        {
          role: "assistant",
          content: [
            {
              type: "tool-call",
              id: "c1",
              name: "read_file",
              input: { path: "a" },
              providerMetadata: { gemini: { thoughtSignature: "sig" } },
            },
          ],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: "text" }],
        },
        { role: "user", content: "go on" },
      ],
      tools: [
        {
          name: "read_file",
          description: "Read",
          inputSchema: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            additionalProperties: false,
            properties: { path: { type: "string" } },
          },
        },
      ],
      maxTokens: 50,
      temperature: 0.5,
      thinking: { effort: "low" },
    });
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: "sys" }] },
      contents: [
        { role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "AAA" } }] },
        {
          role: "model",
          parts: [{ functionCall: { name: "read_file", args: { path: "a" } }, thoughtSignature: "sig" }],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "read_file", response: { result: "text" } } },
            { text: "go on" },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: "read_file",
              description: "Read",
              parameters: { type: "object", properties: { path: { type: "string" } } },
            },
          ],
        },
      ],
      generationConfig: {
        maxOutputTokens: 50,
        thinkingConfig: { thinkingLevel: "low", includeThoughts: true },
      },
    });
  });
});
