import type Anthropic from "@anthropic-ai/sdk";
import type { Credential } from "@nyzhi/auth";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";
import type { EventMapper } from "../stream/map-event-stream.js";
import { SdkLanguageModel } from "../stream/sdk-language-model.js";
import { ToolCallBuffer } from "../stream/tool-call-buffer.js";
import { anthropicError } from "./anthropic-error.js";
import { AnthropicEventDecoder } from "./anthropic-event-decoder.js";
import {
  convertToAnthropicMessages,
  convertToAnthropicSystem,
  convertToAnthropicTools,
} from "./convert-to-anthropic-messages.js";
import { type AnthropicClientSettings, createAnthropicClient } from "./create-anthropic-client.js";
import { mapAnthropicFinishReason } from "./map-anthropic-finish-reason.js";

export interface AnthropicModelSettings {
  providerId: string;
  modelId: string;
  credential: Credential | undefined;
  /** Base URL without `/v1`, e.g. `https://api.anthropic.com`. */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  /** The SDK's OpenTelemetry spans; off unless asked for (see `createAnthropicClient`). */
  openTelemetry?: AnthropicClientSettings["openTelemetry"];
}

/** Spec edges §3.5: 4096 without thinking, at least 16384 with it. */
const DEFAULT_MAX_TOKENS = 4096;
const DEFAULT_THINKING_MAX_TOKENS = 16_384;
const DEFAULT_THINKING_BUDGET = 10_000;
/** Models that take adaptive thinking with an effort instead of a token budget. */
const ADAPTIVE_THINKING = /opus-4-6|sonnet-4-6/;

type StreamParams = Anthropic.MessageCreateParamsStreaming;

/** Anthropic Messages API through `@anthropic-ai/sdk` (also kimi-coding and minimax-coding). */
export class AnthropicLanguageModel extends SdkLanguageModel<
  Anthropic,
  StreamParams,
  Anthropic.RawMessageStreamEvent
> {
  constructor(settings: AnthropicModelSettings) {
    super(settings, () => createAnthropicClient(settings));
  }

  /** The body sent for `request` (exposed for tests and request logging). */
  buildRequestBody(request: ModelRequest): StreamParams {
    const body: StreamParams = {
      model: this.modelId,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      messages: convertToAnthropicMessages(request.messages),
      stream: true,
    };
    const system = convertToAnthropicSystem(request.system);
    if (system) body.system = system;
    const tools = convertToAnthropicTools(request.tools);
    if (tools) body.tools = tools;
    // This Messages API version has no `temperature`; `providerOptions.anthropic` can still force one.
    if (request.thinking) applyThinking(body, request, this.modelId);
    return { ...body, ...(request.providerOptions?.anthropic ?? {}) } as StreamParams;
  }

  protected send(client: Anthropic, body: StreamParams, signal: AbortSignal): Promise<Response> {
    return client.messages.create(body, { signal }).asResponse();
  }

  protected decoder() {
    return new AnthropicEventDecoder();
  }

  protected streamState() {
    return new AnthropicStreamState();
  }

  protected toError(error: unknown, context: ErrorContext) {
    return anthropicError(error, context);
  }
}

function applyThinking(body: StreamParams, request: ModelRequest, modelId: string): void {
  const thinking = request.thinking!;
  if (ADAPTIVE_THINKING.test(modelId)) {
    body.thinking = { type: "adaptive" };
    const effort = thinking.effort;
    if (
      effort === "low" ||
      effort === "medium" ||
      effort === "high" ||
      effort === "xhigh" ||
      effort === "max"
    ) {
      body.output_config = { effort };
    }
    body.max_tokens = request.maxTokens ?? DEFAULT_THINKING_MAX_TOKENS;
    return;
  }
  const budget = thinking.budgetTokens ?? DEFAULT_THINKING_BUDGET;
  body.thinking = { type: "enabled", budget_tokens: budget };
  // max_tokens must exceed the thinking budget.
  body.max_tokens = Math.max(request.maxTokens ?? DEFAULT_THINKING_MAX_TOKENS, budget + 1024);
}

type OpenBlock = { kind: "text" | "reasoning" | "tool"; id: string; signature?: string };

/** Turns Anthropic stream events into stream parts. Block ids are content-block indexes. */
class AnthropicStreamState implements EventMapper<Anthropic.RawMessageStreamEvent> {
  finished = false;
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly toolCalls = new ToolCallBuffer();
  private readonly usage: Usage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  private stopReason: string | null = null;

  /** Anthropic ends with `message_stop`, so a source that ends first is incomplete. */
  end(): undefined {
    return undefined;
  }

  map(event: Anthropic.RawMessageStreamEvent): StreamPart[] {
    switch (event.type) {
      case "message_start":
        this.readUsage(event.message.usage);
        return [];
      case "content_block_start":
        return this.startBlock(event.index, event.content_block);
      case "content_block_delta":
        return this.delta(event.index, event.delta);
      case "content_block_stop":
        return this.stopBlock(event.index);
      case "message_delta":
        this.readUsage(event.usage);
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        return [];
      case "message_stop": {
        this.finished = true;
        const reason = mapAnthropicFinishReason(this.stopReason);
        const finish: StreamPart =
          this.stopReason === null
            ? { type: "finish", reason }
            : { type: "finish", reason, rawReason: this.stopReason };
        return [...this.toolCalls.endAll(), { type: "usage", usage: { ...this.usage } }, finish];
      }
      default:
        return [];
    }
  }

  private startBlock(
    index: number,
    block: Anthropic.RawContentBlockStartEvent["content_block"],
  ): StreamPart[] {
    const id = String(index);
    switch (block.type) {
      case "text":
        this.blocks.set(index, { kind: "text", id });
        return block.text
          ? [
              { type: "text-start", id },
              { type: "text-delta", id, delta: block.text },
            ]
          : [{ type: "text-start", id }];
      case "thinking":
        this.blocks.set(index, { kind: "reasoning", id });
        return [{ type: "reasoning-start", id }];
      case "redacted_thinking":
        return [
          { type: "reasoning-start", id },
          { type: "reasoning-end", id, redactedData: block.data },
        ];
      case "tool_use":
        this.blocks.set(index, { kind: "tool", id: block.id });
        return [this.toolCalls.start(index, block.id, block.name)];
      default:
        return [];
    }
  }

  private delta(index: number, delta: Anthropic.RawContentBlockDelta): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    switch (delta.type) {
      case "text_delta":
        return [{ type: "text-delta", id: block.id, delta: delta.text }];
      case "thinking_delta":
        return [{ type: "reasoning-delta", id: block.id, delta: delta.thinking }];
      case "signature_delta":
        block.signature = (block.signature ?? "") + delta.signature;
        return [];
      case "input_json_delta": {
        const part = this.toolCalls.append(index, delta.partial_json);
        return part ? [part] : [];
      }
      default:
        return [];
    }
  }

  private stopBlock(index: number): StreamPart[] {
    const block = this.blocks.get(index);
    if (!block) return [];
    this.blocks.delete(index);
    if (block.kind === "text") return [{ type: "text-end", id: block.id }];
    if (block.kind === "tool") return this.toolCalls.end(index);
    return block.signature === undefined
      ? [{ type: "reasoning-end", id: block.id }]
      : [{ type: "reasoning-end", id: block.id, signature: block.signature }];
  }

  /** Anthropic's `input_tokens` excludes cached tokens; `Usage.inputTokens` includes them. */
  private readUsage(usage: Partial<Anthropic.MessageDeltaUsage> | null | undefined): void {
    if (!usage) return;
    const uncached = usage.input_tokens ?? undefined;
    const cacheRead = usage.cache_read_input_tokens ?? undefined;
    const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
    if (cacheRead !== undefined) this.usage.cacheReadTokens = cacheRead;
    if (cacheWrite !== undefined) this.usage.cacheWriteTokens = cacheWrite;
    if (uncached !== undefined) {
      this.usage.inputTokens = uncached + this.usage.cacheReadTokens + this.usage.cacheWriteTokens;
    }
    if (usage.output_tokens !== undefined && usage.output_tokens > 0)
      this.usage.outputTokens = usage.output_tokens;
  }
}
