import { normaliseAnthropicRequest } from "./normalise-anthropic-request.js";
import { normaliseGeminiRequest } from "./normalise-gemini-request.js";
import { normaliseOpenAiChatRequest } from "./normalise-openai-chat-request.js";
import { normaliseOpenAiResponsesRequest } from "./normalise-openai-responses-request.js";
import { isRecord, type NormalisedRequest } from "./request-helpers.js";
import type { Route } from "./route-request.js";

export type { NormalisedRequest } from "./request-helpers.js";

const EMPTY: NormalisedRequest = {
  model: undefined,
  stream: false,
  system: undefined,
  messages: [],
  toolsOffered: [],
  includeUsage: false,
};

/** Normalises a parsed JSON body of any wire format; unknown shapes give empty fields, never a throw. */
export function normaliseRequest(route: Route, body: unknown): NormalisedRequest {
  const record = isRecord(body) ? body : {};
  switch (route.api) {
    case "anthropic":
      return normaliseAnthropicRequest(record);
    case "openai-chat":
      return normaliseOpenAiChatRequest(record);
    case "openai-responses":
      return normaliseOpenAiResponsesRequest(record);
    case "gemini":
      return normaliseGeminiRequest(record, route.pathModel, route.pathStream === true);
    default:
      return { ...EMPTY, messages: [] };
  }
}
