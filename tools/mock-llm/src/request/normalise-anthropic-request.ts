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

type ToolResult = NonNullable<RecordedMessage["toolResults"]>[number];
type ToolCall = NonNullable<RecordedMessage["toolCalls"]>[number];

/**
 * Anthropic Messages: `system` is a string or text blocks; a user message made only of `tool_result`
 * blocks is recorded with role `tool`.
 */
export function normaliseAnthropicRequest(body: Record<string, unknown>): NormalisedRequest {
  const system = body.system === undefined ? undefined : contentText(body.system);
  const messages = asArray(body.messages).filter(isRecord).map(normaliseMessage);
  return {
    model: asString(body.model),
    stream: body.stream === true,
    system,
    messages,
    toolsOffered: asArray(body.tools)
      .filter(isRecord)
      .map((tool) => asString(tool.name))
      .filter((name): name is string => name !== undefined),
    includeUsage: false,
  };
}

function normaliseMessage(raw: Record<string, unknown>): RecordedMessage {
  const role = raw.role === "assistant" ? "assistant" : "user";
  if (typeof raw.content === "string") return { role, text: raw.content };
  const blocks = asArray(raw.content).filter(isRecord);
  const toolCalls: ToolCall[] = [];
  const toolResults: ToolResult[] = [];
  let text = "";
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "image" || block.type === "document") text += `[${block.type}]`;
    else if (block.type === "tool_use") {
      toolCalls.push({
        id: asString(block.id) ?? "",
        name: asString(block.name) ?? "",
        arguments: argumentsText(block.input),
      });
    } else if (block.type === "tool_result") {
      const result: ToolResult = {
        id: asString(block.tool_use_id) ?? "",
        content: contentText(block.content),
      };
      if (block.is_error === true) result.isError = true;
      toolResults.push(result);
    }
  }
  const onlyToolResults = toolResults.length > 0 && text === "";
  return message({ role: onlyToolResults ? "tool" : role, text, toolCalls, toolResults });
}
