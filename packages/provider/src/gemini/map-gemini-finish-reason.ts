import type { FinishReason } from "../model/stream-part.js";

/**
 * Maps Gemini `finishReason`. Gemini reports `STOP` even when it called functions, so the caller
 * says whether any function call was seen.
 */
export function mapGeminiFinishReason(
  finishReason: string | undefined,
  options: { hasToolCalls: boolean },
): FinishReason {
  switch (finishReason) {
    case "STOP":
      return options.hasToolCalls ? "tool-calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
      return "content-filter";
    default:
      return "other";
  }
}
