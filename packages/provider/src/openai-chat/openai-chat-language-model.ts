import type { Credential } from "@nyzhi/auth";
import type OpenAI from "openai";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";
import type { EventMapper } from "../stream/map-event-stream.js";
import { OpenBlockTracker } from "../stream/open-block-tracker.js";
import { SdkLanguageModel } from "../stream/sdk-language-model.js";
import { ToolCallBuffer } from "../stream/tool-call-buffer.js";
import { convertToOpenAIChatMessages, convertToOpenAIChatTools } from "./convert-to-openai-chat-messages.js";
import { createOpenAIClient } from "./create-openai-client.js";
import { mapOpenAIChatFinishReason } from "./map-openai-chat-finish-reason.js";
import { mapOpenAIReasoningEffort } from "./map-openai-reasoning-effort.js";
import { openaiError } from "./openai-error.js";
import { OpenAIEventDecoder } from "./openai-event-decoder.js";

export interface OpenAIChatModelSettings {
  providerId: string;
  modelId: string;
  credential: Credential | undefined;
  /** Base URL including the version path (`…/v1`). */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  /**
   * Body field for `ModelRequest.maxTokens`: OpenAI wants `max_completion_tokens` (reasoning
   * models reject `max_tokens`); most compatible servers only know `max_tokens`.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

type StreamParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type Chunk = OpenAI.Chat.ChatCompletionChunk;
/** Reasoning text as DeepSeek/Kimi (`reasoning_content`) and OpenRouter/Ollama (`reasoning`) send it. */
type ReasoningDelta = { reasoning_content?: string | null; reasoning?: string | null };

/** OpenAI Chat Completions through the `openai` SDK; also every OpenAI-compatible preset. */
export class OpenAIChatLanguageModel extends SdkLanguageModel<OpenAI, StreamParams, Chunk> {
  private readonly maxTokensField: "max_tokens" | "max_completion_tokens";

  constructor(settings: OpenAIChatModelSettings) {
    super(settings, () => createOpenAIClient(settings));
    this.maxTokensField = settings.maxTokensField ?? "max_tokens";
  }

  /** The body sent for `request` (exposed for tests and request logging). */
  buildRequestBody(request: ModelRequest): StreamParams {
    const body: StreamParams = {
      model: this.modelId,
      messages: convertToOpenAIChatMessages(request),
      stream: true,
      stream_options: { include_usage: true },
    };
    const tools = convertToOpenAIChatTools(request.tools);
    if (tools) body.tools = tools;
    if (request.maxTokens !== undefined) body[this.maxTokensField] = request.maxTokens;
    if (request.thinking) applyThinking(body, request, this.modelId);
    else if (request.temperature !== undefined) body.temperature = request.temperature;
    return { ...body, ...(request.providerOptions?.openai ?? {}) } as StreamParams;
  }

  protected send(client: OpenAI, body: StreamParams, signal: AbortSignal): Promise<Response> {
    return client.chat.completions.create(body, { signal }).asResponse();
  }

  protected decoder() {
    return new OpenAIEventDecoder<Chunk>();
  }

  protected streamState() {
    return new OpenAIChatStreamState();
  }

  protected toError(error: unknown, context: ErrorContext) {
    return openaiError(error, context);
  }
}

function applyThinking(body: StreamParams, request: ModelRequest, modelId: string): void {
  if (modelId.startsWith("kimi-k2")) {
    Object.assign(body, { thinking: { type: "enabled" }, temperature: 1.0, top_p: 0.95 });
    return;
  }
  body.reasoning_effort = mapOpenAIReasoningEffort(request.thinking?.effort, request.thinking?.budgetTokens);
}

/**
 * Turns chunks into parts. Every `tool_calls` entry is handled (not only the first, as in the
 * Rust port), keyed by its `index`; the finish part waits for the end of the stream because
 * the usage chunk (`stream_options.include_usage`) comes after the `finish_reason` chunk.
 */
class OpenAIChatStreamState implements EventMapper<Chunk> {
  /** Chat streams end with the connection (after `[DONE]`), never on an event. */
  readonly finished = false;
  private readonly blocks = new OpenBlockTracker();
  private readonly toolCalls = new ToolCallBuffer();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private callCount = 0;
  private readonly keyForIndex = new Map<number, string | number>();
  private readonly idForKey = new Map<string | number, string>();

  map(chunk: Chunk): StreamPart[] {
    if (chunk.usage) this.usage = readUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return [];
    const delta = choice.delta as (Chunk["choices"][number]["delta"] & ReasoningDelta) | undefined;
    if (!delta) {
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      return [];
    }
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    // The common chunk carries only text: return its parts without building another array.
    const parts: StreamPart[] =
      delta.content && !reasoning && !delta.tool_calls ? this.blocks.delta("text", delta.content) : [];
    if (parts.length === 0) {
      if (reasoning) parts.push(...this.blocks.delta("reasoning", reasoning));
      if (delta.content) parts.push(...this.blocks.delta("text", delta.content));
      if (delta.tool_calls) parts.push(...this.handleToolCalls(delta.tool_calls));
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return parts;
  }

  private handleToolCalls(toolCalls: OpenAI.Chat.ChatCompletionChunk.Choice.Delta.ToolCall[]): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const [position, toolCall] of toolCalls.entries()) {
      const index = toolCall.index ?? position;
      let key: string | number = this.keyForIndex.get(index) ?? index;
      // Some compatible servers reuse one index (or send none) for several calls: a new id at a
      // known index starts a new call instead of appending to the previous one.
      if (this.toolCalls.has(key) && toolCall.id && toolCall.id !== this.idForKey.get(key)) {
        key = `${index}#${toolCall.id}`;
      }
      if (!this.toolCalls.has(key)) {
        parts.push(...this.blocks.close());
        const id = toolCall.id || `call_${this.callCount}`;
        this.callCount++;
        this.keyForIndex.set(index, key);
        this.idForKey.set(key, id);
        parts.push(this.toolCalls.start(key, id, toolCall.function?.name ?? ""));
      }
      const delta = toolCall.function?.arguments;
      if (delta) {
        const part = this.toolCalls.append(key, delta);
        if (part) parts.push(part);
      }
    }
    return parts;
  }

  /** The closing parts, or undefined when the stream never said it finished. */
  end(): StreamPart[] | undefined {
    if (this.finishReason === undefined) return undefined;
    const parts = [...this.blocks.close(), ...this.toolCalls.endAll()];
    if (this.usage) parts.push({ type: "usage", usage: this.usage });
    parts.push({
      type: "finish",
      reason: mapOpenAIChatFinishReason(this.finishReason),
      rawReason: this.finishReason,
    });
    return parts;
  }
}

function readUsage(usage: OpenAI.CompletionUsage): Usage {
  const result: Usage = {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
  };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning) result.reasoningTokens = reasoning;
  return result;
}
