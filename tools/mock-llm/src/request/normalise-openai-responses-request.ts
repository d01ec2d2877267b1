import type { RecordedMessage } from "../types.js";
import {
  argumentsText,
  asArray,
  asString,
  contentText,
  isRecord,
  type NormalisedRequest,
} from "./request-helpers.js";

const TEXT_PART_TYPES = ["input_text", "output_text", "text"];

/**
 * OpenAI Responses: `instructions` and system/developer input messages form `system`; consecutive
 * `function_call` items join the assistant message before them; consecutive `function_call_output`
 * items form one `tool` message. Reasoning items are skipped.
 */
export function normaliseOpenAiResponsesRequest(body: Record<string, unknown>): NormalisedRequest {
  const messages: RecordedMessage[] = [];
  const input =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : asArray(body.input);
  for (const item of input.filter(isRecord)) addItem(messages, item);
  const systemTexts = [
    ...(typeof body.instructions === "string" ? [body.instructions] : []),
    ...messages.filter((entry) => entry.role === "system").map((entry) => entry.text),
  ];
  return {
    model: asString(body.model),
    stream: body.stream === true,
    system: systemTexts.length > 0 ? systemTexts.join("\n\n") : undefined,
    messages,
    toolsOffered: asArray(body.tools)
      .filter(isRecord)
      .map((tool) => asString(tool.name))
      .filter((name): name is string => name !== undefined),
    includeUsage: false,
  };
}

function addItem(messages: RecordedMessage[], item: Record<string, unknown>): void {
  const last = messages.at(-1);
  if (item.type === "function_call") {
    const call = {
      id: asString(item.call_id) ?? asString(item.id) ?? "",
      name: asString(item.name) ?? "",
      arguments: argumentsText(item.arguments),
    };
    if (last?.role === "assistant") last.toolCalls = [...(last.toolCalls ?? []), call];
    else messages.push({ role: "assistant", text: "", toolCalls: [call] });
    return;
  }
  if (item.type === "function_call_output") {
    const result = { id: asString(item.call_id) ?? "", content: contentText(item.output, TEXT_PART_TYPES) };
    if (last?.role === "tool") last.toolResults = [...(last.toolResults ?? []), result];
    else messages.push({ role: "tool", text: "", toolResults: [result] });
    return;
  }
  if (item.type !== undefined && item.type !== "message") return;
  const text = contentText(item.content, TEXT_PART_TYPES);
  const role = item.role === "system" || item.role === "developer" ? "system" : item.role;
  messages.push({ role: role === "assistant" || role === "system" ? role : "user", text });
}
