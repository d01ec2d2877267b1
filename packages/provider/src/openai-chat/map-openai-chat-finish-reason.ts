import type { FinishReason } from "../model/stream-part.js";

/** Maps Chat Completions `finish_reason` to a `FinishReason`. */
export function mapOpenAIChatFinishReason(finishReason: string | null | undefined): FinishReason {
  switch (finishReason) {
    case "stop":
      return "stop";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    default:
      return "other";
  }
}
