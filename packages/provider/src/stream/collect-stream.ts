import type { ProviderError } from "../errors/provider-error.js";
import type { FinishReason, StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";

/** A whole response gathered from a stream (for non-interactive callers and tests). */
export interface CollectedResponse {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string; input: unknown }[];
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  error: ProviderError | undefined;
  parts: StreamPart[];
}

/** Drains a `doStream` iterable into one `CollectedResponse`. */
export async function collectStream(stream: AsyncIterable<StreamPart>): Promise<CollectedResponse> {
  const response: CollectedResponse = {
    text: "",
    reasoning: "",
    toolCalls: [],
    usage: undefined,
    finishReason: undefined,
    error: undefined,
    parts: [],
  };
  for await (const part of stream) {
    response.parts.push(part);
    switch (part.type) {
      case "text-delta":
        response.text += part.delta;
        break;
      case "reasoning-delta":
        response.reasoning += part.delta;
        break;
      case "tool-call":
        response.toolCalls.push({
          id: part.id,
          name: part.name,
          arguments: part.arguments,
          input: part.input,
        });
        break;
      case "usage":
        response.usage = part.usage;
        break;
      case "finish":
        response.finishReason = part.reason;
        break;
      case "error":
        response.error = part.error;
        break;
      default:
        break;
    }
  }
  return response;
}
