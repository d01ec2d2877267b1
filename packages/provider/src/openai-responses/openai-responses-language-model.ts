import type { Credential } from "@nyzhi/auth";
import type OpenAI from "openai";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import type { ModelRequest } from "../model/model-request.js";
import { systemText } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";
import { createOpenAIClient } from "../openai-chat/create-openai-client.js";
import { mapOpenAIReasoningEffort } from "../openai-chat/map-openai-reasoning-effort.js";
import { openaiError } from "../openai-chat/openai-error.js";
import { OpenAIEventDecoder } from "../openai-chat/openai-event-decoder.js";
import type { EventMapper } from "../stream/map-event-stream.js";
import { OpenBlockTracker } from "../stream/open-block-tracker.js";
import { SdkLanguageModel } from "../stream/sdk-language-model.js";
import { ToolCallBuffer } from "../stream/tool-call-buffer.js";
import {
  convertToOpenAIResponsesInput,
  convertToOpenAIResponsesTools,
} from "./convert-to-openai-responses-input.js";
import { mapOpenAIResponsesFinishReason } from "./map-openai-responses-finish-reason.js";
import { openaiResponsesStreamError } from "./openai-responses-error.js";

export interface OpenAIResponsesModelSettings {
  providerId: string;
  modelId: string;
  credential: Credential | undefined;
  /** Base URL including the version path (`…/v1`). */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

type StreamParams = OpenAI.Responses.ResponseCreateParamsStreaming;
type Event = OpenAI.Responses.ResponseStreamEvent;

/** OpenAI Responses API (`POST /responses`) through the `openai` SDK. */
export class OpenAIResponsesLanguageModel extends SdkLanguageModel<OpenAI, StreamParams, Event> {
  constructor(settings: OpenAIResponsesModelSettings) {
    super(settings, () => createOpenAIClient(settings));
  }

  /** The body sent for `request` (exposed for tests and request logging). */
  buildRequestBody(request: ModelRequest): StreamParams {
    const body: StreamParams = {
      model: this.modelId,
      input: convertToOpenAIResponsesInput(request.messages),
      stream: true,
      store: false,
    };
    const instructions = systemText(request.system);
    if (instructions !== "") body.instructions = instructions;
    const tools = convertToOpenAIResponsesTools(request.tools);
    if (tools) body.tools = tools;
    if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
    if (request.thinking) {
      body.reasoning = {
        effort: mapOpenAIReasoningEffort(request.thinking.effort, request.thinking.budgetTokens),
        summary: "auto",
      };
    } else if (request.temperature !== undefined) body.temperature = request.temperature;
    return { ...body, ...(request.providerOptions?.openai ?? {}) } as StreamParams;
  }

  protected send(client: OpenAI, body: StreamParams, signal: AbortSignal): Promise<Response> {
    return client.responses.create(body, { signal }).asResponse();
  }

  protected decoder() {
    return new OpenAIEventDecoder<Event>();
  }

  protected streamState() {
    return new OpenAIResponsesStreamState(this.providerId);
  }

  protected toError(error: unknown, context: ErrorContext) {
    return openaiError(error, context);
  }
}

/** Turns Responses events into parts. Function calls are keyed by their `output_index`. */
class OpenAIResponsesStreamState implements EventMapper<Event> {
  finished = false;
  private readonly blocks = new OpenBlockTracker();
  private readonly toolCalls = new ToolCallBuffer();
  private hasToolCalls = false;

  constructor(private readonly providerId: string) {}

  /** Responses end with `response.completed` (or incomplete/failed), so a source that ends first is incomplete. */
  end(): undefined {
    return undefined;
  }

  map(event: Event): StreamPart[] {
    switch (event.type) {
      case "response.output_text.delta":
        return this.blocks.delta("text", event.delta);
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.blocks.delta("reasoning", event.delta);
      case "response.output_item.added":
        if (event.item.type !== "function_call") return [];
        this.hasToolCalls = true;
        return [
          ...this.blocks.close(),
          this.toolCalls.start(event.output_index, event.item.call_id, event.item.name),
          ...this.appendPart(event.output_index, event.item.arguments),
        ];
      case "response.function_call_arguments.delta":
        return this.appendPart(event.output_index, event.delta);
      case "response.output_item.done":
        return event.item.type === "function_call" ? this.toolCalls.end(event.output_index) : [];
      case "response.completed":
      case "response.incomplete":
        return this.finish(event.response);
      case "response.failed":
        this.finished = true;
        return [
          {
            type: "error",
            error: openaiResponsesStreamError(event.response.error, { providerId: this.providerId }),
          },
        ];
      case "error":
        this.finished = true;
        return [{ type: "error", error: openaiResponsesStreamError(event, { providerId: this.providerId }) }];
      default:
        return [];
    }
  }

  private appendPart(key: number, delta: string | undefined): StreamPart[] {
    const part = delta ? this.toolCalls.append(key, delta) : undefined;
    return part ? [part] : [];
  }

  private finish(response: OpenAI.Responses.Response): StreamPart[] {
    this.finished = true;
    const parts = [...this.blocks.close(), ...this.toolCalls.endAll()];
    if (response.usage) parts.push({ type: "usage", usage: readUsage(response.usage) });
    const incompleteReason =
      response.status === "incomplete" ? (response.incomplete_details?.reason ?? "other") : null;
    const reason = mapOpenAIResponsesFinishReason({ incompleteReason, hasToolCalls: this.hasToolCalls });
    parts.push({ type: "finish", reason, rawReason: incompleteReason ?? response.status ?? "completed" });
    return parts;
  }
}

function readUsage(usage: OpenAI.Responses.ResponseUsage): Usage {
  const result: Usage = {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
  };
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (reasoning) result.reasoningTokens = reasoning;
  return result;
}
