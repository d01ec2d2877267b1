import type { MockResponse } from "../types.js";

/** A scripted answer resolved into exact chunks, ids and counts, ready for any wire format. */
export interface ResponsePlan {
  /** Id for the message / completion / response object. */
  id: string;
  model: string;
  /** Epoch seconds. */
  created: number;
  reasoning: string[];
  text: string[];
  toolCalls: PlannedToolCall[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number };
  finishReason: "stop" | "tool_calls" | "length";
}

export interface PlannedToolCall {
  id: string;
  name: string;
  /** The whole argument JSON text. */
  arguments: string;
  /** `arguments` split for streaming; joined they equal `arguments`. */
  argumentChunks: string[];
}

export interface PlanOptions {
  model: string;
  /** Counter shared by the server so ids stay unique and deterministic. */
  nextId: () => number;
  /** Prefix of generated tool call ids, e.g. `toolu_mock_` or `call_mock_`. */
  toolIdPrefix: string;
  /** Size of the request body in characters, for the default input token count. */
  requestChars: number;
}

/** Resolves a `MockResponse` into the chunks every wire-format writer streams. */
export function planResponse(response: MockResponse, options: PlanOptions): ResponsePlan {
  const serial = options.nextId();
  const reasoning = toChunks(response.reasoning);
  const text = toChunks(response.text);
  const toolCalls = (response.toolCalls ?? []).map((call) => {
    const argumentsJson =
      typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    return {
      id: call.id ?? `${options.toolIdPrefix}${options.nextId()}`,
      name: call.name,
      arguments: argumentsJson,
      argumentChunks: splitEvenly(argumentsJson, call.argumentChunks ?? 3),
    };
  });
  const outputChars =
    reasoning.join("").length +
    text.join("").length +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return {
    id: `mock_${serial}`,
    model: options.model,
    created: Math.floor(Date.now() / 1000),
    reasoning,
    text,
    toolCalls,
    usage: {
      inputTokens: response.usage?.inputTokens ?? Math.max(1, Math.ceil(options.requestChars / 4)),
      outputTokens: response.usage?.outputTokens ?? Math.max(1, Math.ceil(outputChars / 4)),
      cacheReadTokens: response.usage?.cacheReadTokens ?? 0,
    },
    finishReason: response.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

/** An array is kept as the exact chunks (empty strings dropped); a string is split into up to 4 chunks at word starts. */
export function toChunks(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.filter((chunk) => chunk !== "");
  if (value === "") return [];
  const words = value.split(/(?<=\s)(?=\S)/);
  const count = Math.min(4, words.length);
  const perChunk = Math.ceil(words.length / count);
  const chunks: string[] = [];
  for (let start = 0; start < words.length; start += perChunk) {
    chunks.push(words.slice(start, start + perChunk).join(""));
  }
  return chunks;
}

/** Splits text into exactly `parts` pieces of near-equal length (fewer only when the text is shorter). */
export function splitEvenly(text: string, parts: number): string[] {
  const characters = Array.from(text);
  if (characters.length === 0) return [""];
  const count = Math.max(1, Math.min(parts, characters.length));
  const base = Math.floor(characters.length / count);
  const chunks: string[] = [];
  let start = 0;
  for (let index = 0; index < count; index++) {
    const size = base + (index < characters.length % count ? 1 : 0);
    chunks.push(characters.slice(start, start + size).join(""));
    start += size;
  }
  return chunks;
}

/** `arguments` as an object for non-streaming bodies; text that is not a JSON object gives `{}`. */
export function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
