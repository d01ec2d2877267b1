import type { FinishReason } from "../model/stream-part.js";

/**
 * The finish reason of a Responses stream: `response.completed` is `stop`, or `tool-calls` when
 * the output held function calls; `response.incomplete` maps its `incomplete_details.reason`.
 */
export function mapOpenAIResponsesFinishReason(options: {
  incompleteReason?: string | null | undefined;
  hasToolCalls: boolean;
}): FinishReason {
  switch (options.incompleteReason) {
    case undefined:
    case null:
      return options.hasToolCalls ? "tool-calls" : "stop";
    case "max_output_tokens":
      return "length";
    case "content_filter":
      return "content-filter";
    default:
      return "other";
  }
}
