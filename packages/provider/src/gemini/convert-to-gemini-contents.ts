import type { ModelMessage, ModelRequest } from "../model/model-request.js";
import { systemText } from "../model/model-request.js";

export type GeminiPart = Record<string, unknown>;
export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/**
 * Messages as Gemini `contents`: assistant is `model`, everything else `user`; tool calls are
 * `functionCall` parts (with their `thoughtSignature` sent back), results `functionResponse`
 * parts named after the tool. Consecutive contents of one role are merged.
 */
export function convertToGeminiContents(messages: ModelMessage[]): GeminiContent[] {
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const role = message.role === "assistant" ? "model" : "user";
    const parts = convertParts(message);
    if (parts.length === 0) continue;
    const previous = contents[contents.length - 1];
    if (previous && previous.role === role) previous.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

function convertParts(message: ModelMessage): GeminiPart[] {
  if (typeof message.content === "string") return message.content === "" ? [] : [{ text: message.content }];
  const parts: GeminiPart[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (part.text !== "") parts.push({ text: part.text });
        break;
      case "image":
        parts.push({ inlineData: { mimeType: part.mediaType, data: part.data } });
        break;
      case "reasoning":
        break; // Gemini keeps its reasoning server-side; signatures ride on the function calls
      case "tool-call": {
        const converted: GeminiPart = { functionCall: { name: part.name, args: part.input ?? {} } };
        const signature = part.providerMetadata?.gemini?.thoughtSignature;
        if (typeof signature === "string") converted.thoughtSignature = signature;
        parts.push(converted);
        break;
      }
      case "tool-result":
        parts.push({
          functionResponse: {
            name: part.toolName || part.toolCallId,
            response: part.isError ? { error: part.output } : { result: part.output },
          },
        });
        for (const image of part.images ?? [])
          parts.push({ inlineData: { mimeType: image.mediaType, data: image.data } });
        break;
    }
  }
  return parts;
}

export function convertToGeminiSystemInstruction(
  system: ModelRequest["system"],
): { parts: GeminiPart[] } | undefined {
  const text = systemText(system);
  return text === "" ? undefined : { parts: [{ text }] };
}

/** Keys Gemini's OpenAPI-subset `parameters` schema rejects. */
const UNSUPPORTED_SCHEMA_KEYS = new Set(["$schema", "additionalProperties", "$id", "$defs", "definitions"]);

export function convertToGeminiTools(tools: ModelRequest["tools"]): Record<string, unknown>[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: sanitizeSchema(tool.inputSchema),
      })),
    },
  ];
}

/** Drops schema keywords Gemini rejects, at every depth. */
export function sanitizeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sanitizeSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(key)) continue;
    result[key] = key === "properties" ? sanitizeProperties(value) : sanitizeSchema(value);
  }
  return result;
}

function sanitizeProperties(properties: unknown): unknown {
  if (properties === null || typeof properties !== "object") return properties;
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, sanitizeSchema(value)]));
}
