import type Anthropic from "@anthropic-ai/sdk";
import type { ModelMessage, ModelRequest } from "../model/model-request.js";
import { systemFragments } from "../model/model-request.js";

type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;
type TextBlockParam = Anthropic.TextBlockParam;
type Tool = Anthropic.Tool;

const EPHEMERAL = { type: "ephemeral" } as const;
/** Anthropic accepts at most 4 `cache_control` breakpoints per request. */
const MAX_SYSTEM_BREAKPOINTS = 2;

/**
 * The system prompt as text blocks with prompt-caching markers: a plain string is one cached
 * block; with fragments, the last `MAX_SYSTEM_BREAKPOINTS` fragments marked `cache` get a marker.
 */
export function convertToAnthropicSystem(system: ModelRequest["system"]): TextBlockParam[] | undefined {
  const fragments = systemFragments(system).filter((fragment) => fragment.text !== "");
  if (fragments.length === 0) return undefined;
  if (typeof system === "string") return [{ type: "text", text: system, cache_control: EPHEMERAL }];
  const cachedIndexes = fragments
    .map((fragment, index) => (fragment.cache ? index : -1))
    .filter((index) => index >= 0)
    .slice(-MAX_SYSTEM_BREAKPOINTS);
  return fragments.map((fragment, index) =>
    cachedIndexes.includes(index)
      ? { type: "text", text: fragment.text, cache_control: EPHEMERAL }
      : { type: "text", text: fragment.text },
  );
}

/** Tool definitions; the last one carries a cache marker so the whole tool list is cached. */
export function convertToAnthropicTools(tools: ModelRequest["tools"]): Tool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool, index) => {
    const converted: Tool = {
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Tool["input_schema"],
    };
    if (index === tools.length - 1) converted.cache_control = EPHEMERAL;
    return converted;
  });
}

/**
 * Messages in Anthropic's shape: tool results become `tool_result` blocks in a user message,
 * consecutive messages of one role are merged (results first), reasoning goes back as signed
 * `thinking` or `redacted_thinking` blocks (unsigned reasoning is dropped: the API rejects it),
 * and the last block of the last message gets a cache marker so the conversation prefix is cached.
 */
export function convertToAnthropicMessages(messages: ModelMessage[]): MessageParam[] {
  const converted: MessageParam[] = [];
  for (const message of messages) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const content = convertContent(message);
    if (content.length === 0) continue;
    const previous = converted[converted.length - 1];
    if (previous && previous.role === role) {
      (previous.content as ContentBlockParam[]).push(...content);
    } else {
      converted.push({ role, content });
    }
  }
  markLastBlockForCache(converted);
  return converted;
}

function convertContent(message: ModelMessage): ContentBlockParam[] {
  if (typeof message.content === "string") {
    return message.content === "" ? [] : [{ type: "text", text: message.content }];
  }
  const blocks: ContentBlockParam[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (part.text !== "") blocks.push({ type: "text", text: part.text });
        break;
      case "image":
        blocks.push({
          type: "image",
          source: { type: "base64", media_type: part.mediaType as "image/png", data: part.data },
        });
        break;
      case "reasoning":
        if (part.redactedData !== undefined)
          blocks.push({ type: "redacted_thinking", data: part.redactedData });
        else if (part.signature !== undefined) {
          blocks.push({ type: "thinking", thinking: part.text, signature: part.signature });
        }
        break;
      case "tool-call":
        blocks.push({ type: "tool_use", id: part.id, name: part.name, input: part.input ?? {} });
        break;
      case "tool-result":
        blocks.push({
          type: "tool_result",
          tool_use_id: part.toolCallId,
          content:
            part.images && part.images.length > 0
              ? [
                  { type: "text", text: part.output },
                  ...part.images.map((image) => ({
                    type: "image" as const,
                    source: {
                      type: "base64" as const,
                      media_type: image.mediaType as "image/png",
                      data: image.data,
                    },
                  })),
                ]
              : part.output,
          ...(part.isError ? { is_error: true } : {}),
        });
        break;
    }
  }
  return blocks;
}

function markLastBlockForCache(messages: MessageParam[]): void {
  const last = messages[messages.length - 1];
  if (!last || typeof last.content === "string") return;
  for (let index = last.content.length - 1; index >= 0; index--) {
    const block = last.content[index]!;
    if (
      block.type === "text" ||
      block.type === "tool_result" ||
      block.type === "image" ||
      block.type === "tool_use"
    ) {
      block.cache_control = EPHEMERAL;
      return;
    }
  }
}
