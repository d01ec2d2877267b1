import type OpenAI from "openai";
import type { AssistantMessage, ModelRequest, ToolMessage, UserMessage } from "../model/model-request.js";

type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;

/**
 * Messages as Responses `input` items: user and assistant messages, `function_call` items for
 * tool calls and `function_call_output` items for results. The system prompt goes in
 * `instructions`, not here. Reasoning is not sent back (requests are `store: false`).
 */
export function convertToOpenAIResponsesInput(messages: ModelRequest["messages"]): InputItem[] {
  const items: InputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") items.push(convertUser(message));
    else if (message.role === "assistant") items.push(...convertAssistant(message));
    else items.push(...convertToolResults(message));
  }
  return items;
}

function convertUser(message: UserMessage): InputItem {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  const content: InputContent[] = message.content.map((part) =>
    part.type === "text"
      ? { type: "input_text", text: part.text }
      : { type: "input_image", image_url: `data:${part.mediaType};base64,${part.data}`, detail: "auto" },
  );
  return { role: "user", content };
}

function convertAssistant(message: AssistantMessage): InputItem[] {
  if (typeof message.content === "string") {
    return message.content === "" ? [] : [{ role: "assistant", content: message.content }];
  }
  const items: InputItem[] = [];
  for (const part of message.content) {
    if (part.type === "text" && part.text !== "") items.push({ role: "assistant", content: part.text });
    if (part.type === "tool-call") {
      items.push({
        type: "function_call",
        call_id: part.id,
        name: part.name,
        arguments: JSON.stringify(part.input ?? {}),
      });
    }
  }
  return items;
}

function convertToolResults(message: ToolMessage): InputItem[] {
  return message.content.map((result) => ({
    type: "function_call_output",
    call_id: result.toolCallId,
    output: result.isError && !/^error/i.test(result.output) ? `Error: ${result.output}` : result.output,
  }));
}

/** Tool definitions in Responses shape (flat, not nested under `function`). */
export function convertToOpenAIResponsesTools(
  tools: ModelRequest["tools"],
): OpenAI.Responses.FunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}
