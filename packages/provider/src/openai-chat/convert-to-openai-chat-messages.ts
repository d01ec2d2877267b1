import type OpenAI from "openai";
import type { AssistantMessage, ModelRequest, ToolMessage, UserMessage } from "../model/model-request.js";
import { systemText } from "../model/model-request.js";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.ChatCompletionContentPart;
type ToolCall = OpenAI.Chat.ChatCompletionMessageFunctionToolCall;

/**
 * Messages in Chat Completions shape. Unlike the Rust port (spec edges §3.5 [DEFECT]), tool
 * calls go on the assistant message as `tool_calls[]` and every result is its own
 * `role: "tool"` message with `tool_call_id`. Reasoning is not sent back (the API has no field
 * for it, and DeepSeek rejects its own `reasoning_content` in input).
 */
export function convertToOpenAIChatMessages(
  request: Pick<ModelRequest, "system" | "messages">,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const system = systemText(request.system);
  if (system !== "") messages.push({ role: "system", content: system });
  for (const message of request.messages) {
    if (message.role === "user") messages.push(convertUser(message));
    else if (message.role === "assistant") {
      const converted = convertAssistant(message);
      if (converted) messages.push(converted);
    } else messages.push(...convertToolResults(message));
  }
  return messages;
}

function convertUser(message: UserMessage): ChatMessage {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  if (message.content.every((part) => part.type === "text")) {
    return {
      role: "user",
      content: message.content.map((part) => (part as { text: string }).text).join("\n"),
    };
  }
  const content: ContentPart[] = message.content.map((part) =>
    part.type === "text"
      ? { type: "text", text: part.text }
      : { type: "image_url", image_url: { url: `data:${part.mediaType};base64,${part.data}` } },
  );
  return { role: "user", content };
}

function convertAssistant(message: AssistantMessage): ChatMessage | undefined {
  if (typeof message.content === "string") return { role: "assistant", content: message.content };
  const text = message.content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
  const toolCalls: ToolCall[] = [];
  for (const part of message.content) {
    if (part.type !== "tool-call") continue;
    toolCalls.push({
      id: part.id,
      type: "function",
      function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
    });
  }
  if (text === "" && toolCalls.length === 0) return undefined;
  return toolCalls.length === 0
    ? { role: "assistant", content: text }
    : { role: "assistant", content: text === "" ? null : text, tool_calls: toolCalls };
}

function convertToolResults(message: ToolMessage): ChatMessage[] {
  const results: ChatMessage[] = message.content.map((result) => ({
    role: "tool",
    tool_call_id: result.toolCallId,
    content: result.isError && !/^error/i.test(result.output) ? `Error: ${result.output}` : result.output,
  }));
  // Tool messages carry text only; images a tool returned follow in one user message.
  const images = message.content.flatMap((result) =>
    (result.images ?? []).map((image) => ({ tool: result.toolName, image })),
  );
  if (images.length > 0) {
    results.push({
      role: "user",
      content: [
        {
          type: "text",
          text: `Images returned by ${[...new Set(images.map((entry) => entry.tool))].join(", ")}:`,
        },
        ...images.map(({ image }) => ({
          type: "image_url" as const,
          image_url: { url: `data:${image.mediaType};base64,${image.data}` },
        })),
      ],
    });
  }
  return results;
}

/** Tool definitions in Chat Completions shape. */
export function convertToOpenAIChatTools(
  tools: ModelRequest["tools"],
): OpenAI.Chat.ChatCompletionFunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
