import type { RecordedMessage } from "../types.js";
import {
  argumentsText,
  asArray,
  asString,
  contentText,
  isRecord,
  message,
  type NormalisedRequest,
} from "./request-helpers.js";

/**
 * OpenAI Chat Completions: system and developer messages form `system` and are also recorded as
 * `system` messages; `role: "tool"` messages become tool results; `assistant.tool_calls` tool calls.
 */
export function normaliseOpenAiChatRequest(body: Record<string, unknown>): NormalisedRequest {
  const messages = asArray(body.messages).filter(isRecord).map(normaliseMessage);
  const systemTexts = messages.filter((entry) => entry.role === "system").map((entry) => entry.text);
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: asString(body.model),
    stream: body.stream === true,
    system: systemTexts.length > 0 ? systemTexts.join("\n\n") : undefined,
    messages,
    toolsOffered: asArray(body.tools)
      .filter(isRecord)
      .map((tool) => (isRecord(tool.function) ? asString(tool.function.name) : asString(tool.name)))
      .filter((name): name is string => name !== undefined),
    includeUsage: streamOptions.include_usage === true,
  };
}

function normaliseMessage(raw: Record<string, unknown>): RecordedMessage {
  const text = contentText(raw.content);
  switch (raw.role) {
    case "system":
    case "developer":
      return { role: "system", text };
    case "tool":
      return message({
        role: "tool",
        text: "",
        toolResults: [{ id: asString(raw.tool_call_id) ?? "", content: text }],
      });
    case "assistant":
      return message({
        role: "assistant",
        text,
        toolCalls: asArray(raw.tool_calls)
          .filter(isRecord)
          .map((call) => {
            const fn = isRecord(call.function) ? call.function : {};
            return {
              id: asString(call.id) ?? "",
              name: asString(fn.name) ?? "",
              arguments: argumentsText(fn.arguments),
            };
          }),
      });
    default:
      return { role: "user", text };
  }
}
