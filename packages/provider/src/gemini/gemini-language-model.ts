import { randomUUID } from "node:crypto";
import type { Credential } from "@nyzhi/auth";
import { errorFromHttpStatus } from "../errors/error-from-http-status.js";
import type { ErrorContext } from "../errors/error-from-unknown.js";
import { nodeHttpFetch } from "../http/node-http-fetch.js";
import type { LanguageModel, StreamOptions } from "../model/language-model.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";
import type { SseEvent } from "../sse/parse-sse-stream.js";
import { type EventMapper, mapEventStream } from "../stream/map-event-stream.js";
import { OpenBlockTracker } from "../stream/open-block-tracker.js";
import { SseEventMapper } from "../stream/sse-event-mapper.js";
import { ToolCallBuffer } from "../stream/tool-call-buffer.js";
import {
  convertToGeminiContents,
  convertToGeminiSystemInstruction,
  convertToGeminiTools,
  type GeminiPart,
} from "./convert-to-gemini-contents.js";
import { geminiError, geminiHttpError } from "./gemini-error.js";
import { mapGeminiFinishReason } from "./map-gemini-finish-reason.js";

export interface GeminiModelSettings {
  providerId: string;
  modelId: string;
  credential: Credential | undefined;
  /** Base URL including the version path, e.g. `https://generativelanguage.googleapis.com/v1beta`. */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

const DEFAULT_THINKING_BUDGET = 8192;
const THINKING_LEVELS = new Set(["minimal", "low", "medium", "high"]);

interface GeminiChunk {
  /** Sent instead of candidates when the request fails after the stream started. */
  error?: { code?: number; message?: string; status?: string };
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    cachedContentTokenCount?: number;
    thoughtsTokenCount?: number;
  };
}

/**
 * Gemini `streamGenerateContent?alt=sse` over `fetch` and our own SSE parser. An API key goes in
 * the `x-goog-api-key` header (not the `?key=` query, which ends up in logs and proxies); an
 * OAuth token as `Authorization: Bearer`.
 */
export class GeminiLanguageModel implements LanguageModel {
  readonly providerId: string;
  readonly modelId: string;
  private readonly settings: GeminiModelSettings;

  constructor(settings: GeminiModelSettings) {
    this.providerId = settings.providerId;
    this.modelId = settings.modelId;
    this.settings = settings;
  }

  /** The body sent for `request` (exposed for tests and request logging). */
  buildRequestBody(request: ModelRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { contents: convertToGeminiContents(request.messages) };
    const systemInstruction = convertToGeminiSystemInstruction(request.system);
    if (systemInstruction) body.systemInstruction = systemInstruction;
    const tools = convertToGeminiTools(request.tools);
    if (tools) body.tools = tools;
    const generationConfig: Record<string, unknown> = {};
    if (request.maxTokens !== undefined) generationConfig.maxOutputTokens = request.maxTokens;
    if (request.thinking) generationConfig.thinkingConfig = thinkingConfig(request, this.modelId);
    else if (request.temperature !== undefined) generationConfig.temperature = request.temperature;
    if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
    return { ...body, ...(request.providerOptions?.gemini ?? {}) };
  }

  doStream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<StreamPart> {
    const { signal } = options;
    const context = {
      providerId: this.providerId,
      credential: this.settings.credential,
      signal,
      baseUrl: this.settings.baseUrl,
    };
    return mapEventStream<Uint8Array>({
      open: async (streamSignal) => {
        const response = await this.post(request, streamSignal);
        if (!response.ok) throw await geminiHttpError(response, { ...context, phase: "request" });
        if (!response.body) throw new Error("the response has no body");
        return response.body as AsyncIterable<Uint8Array>;
      },
      mapper: new SseEventMapper(new GeminiStreamState(), (event) => decodeGeminiEvent(event, context)),
      signal,
      toError: (error, phase) => geminiError(error, { ...context, phase }),
    });
  }

  private post(request: ModelRequest, signal: AbortSignal): Promise<Response> {
    const fetchImpl = this.settings.fetch ?? nodeHttpFetch;
    const base = this.settings.baseUrl.replace(/\/+$/, "");
    const url = `${base}/models/${encodeURIComponent(this.modelId)}:streamGenerateContent?alt=sse`;
    return fetchImpl(url, {
      method: "POST",
      headers: this.headers(),
      body: JSON.stringify(this.buildRequestBody(request)),
      signal,
    });
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json", ...this.settings.headers };
    const credential = this.settings.credential;
    if (credential?.type === "oauth") headers.authorization = `Bearer ${credential.accessToken}`;
    else if (credential?.type === "api-key") headers["x-goog-api-key"] = credential.key;
    return headers;
  }
}

function thinkingConfig(request: ModelRequest, modelId: string): Record<string, unknown> {
  const effort = request.thinking?.effort;
  if (effort && THINKING_LEVELS.has(effort) && !modelId.startsWith("gemini-2")) {
    return { thinkingLevel: effort, includeThoughts: true };
  }
  return { thinkingBudget: request.thinking?.budgetTokens ?? DEFAULT_THINKING_BUDGET, includeThoughts: true };
}

/**
 * One SSE event as a Gemini chunk. A chunk holding `error` (the request failed after the stream
 * had started) becomes the error it describes, as the same body would in an HTTP error response.
 */
function decodeGeminiEvent(
  event: SseEvent,
  context: Pick<ErrorContext, "providerId" | "credential">,
): GeminiChunk {
  const chunk = JSON.parse(event.data) as GeminiChunk;
  if (chunk.error) {
    throw errorFromHttpStatus({
      providerId: context.providerId,
      status: typeof chunk.error.code === "number" ? chunk.error.code : 500,
      body: chunk,
      credential: context.credential,
    });
  }
  return chunk;
}

/** Turns Gemini chunks into parts. Function calls arrive whole, so each is started and ended at once. */
class GeminiStreamState implements EventMapper<GeminiChunk> {
  /** Gemini streams end with the connection. */
  readonly finished = false;
  private readonly blocks = new OpenBlockTracker();
  private readonly toolCalls = new ToolCallBuffer();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private hasToolCalls = false;

  map(chunk: GeminiChunk): StreamPart[] {
    if (chunk.usageMetadata) this.usage = readUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.[0];
    if (!candidate) return [];
    const parts: StreamPart[] = [];
    for (const part of candidate.content?.parts ?? []) parts.push(...this.handlePart(part));
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
    return parts;
  }

  private handlePart(part: GeminiPart): StreamPart[] {
    const functionCall = part.functionCall as { name?: string; args?: unknown; id?: string } | undefined;
    if (functionCall) {
      this.hasToolCalls = true;
      const id = functionCall.id || `call_${randomUUID()}`;
      const signature = part.thoughtSignature;
      const metadata =
        typeof signature === "string" ? { gemini: { thoughtSignature: signature } } : undefined;
      const parts = [...this.blocks.close(), this.toolCalls.start(id, id, functionCall.name ?? "", metadata)];
      const delta = this.toolCalls.append(id, JSON.stringify(functionCall.args ?? {}));
      if (delta) parts.push(delta);
      return [...parts, ...this.toolCalls.end(id)];
    }
    if (typeof part.text !== "string") return [];
    return this.blocks.delta(part.thought === true ? "reasoning" : "text", part.text);
  }

  end(): StreamPart[] | undefined {
    if (this.finishReason === undefined) return undefined;
    const parts = this.blocks.close();
    if (this.usage) parts.push({ type: "usage", usage: this.usage });
    const reason = mapGeminiFinishReason(this.finishReason, { hasToolCalls: this.hasToolCalls });
    parts.push({ type: "finish", reason, rawReason: this.finishReason });
    return parts;
  }
}

/** Gemini's `candidatesTokenCount` excludes thinking; `Usage.outputTokens` includes it. */
function readUsage(metadata: NonNullable<GeminiChunk["usageMetadata"]>): Usage {
  const thoughts = metadata.thoughtsTokenCount ?? 0;
  const usage: Usage = {
    inputTokens: metadata.promptTokenCount ?? 0,
    outputTokens: (metadata.candidatesTokenCount ?? 0) + thoughts,
    cacheReadTokens: metadata.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
  };
  if (thoughts > 0) usage.reasoningTokens = thoughts;
  return usage;
}
