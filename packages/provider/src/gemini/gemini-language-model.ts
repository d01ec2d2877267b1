import { randomUUID } from "node:crypto";
import type { Credential } from "@nyzhi/auth";
import type { LanguageModel, StreamOptions } from "../model/language-model.js";
import type { ModelRequest } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";
import type { Usage } from "../model/usage.js";
import { parseSseStream } from "../sse/parse-sse-stream.js";
import { OpenBlockTracker } from "../stream/open-block-tracker.js";
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

  async *doStream(request: ModelRequest, options: StreamOptions = {}): AsyncGenerator<StreamPart> {
    const { signal } = options;
    const { credential } = this.settings;
    const context = {
      providerId: this.providerId,
      credential,
      signal,
      phase: "request" as "request" | "stream",
    };
    const fetchImpl = this.settings.fetch ?? globalThis.fetch;
    const url = `${this.settings.baseUrl.replace(/\/+$/, "")}/models/${encodeURIComponent(this.modelId)}:streamGenerateContent?alt=sse`;
    try {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: this.headers(),
        body: JSON.stringify(this.buildRequestBody(request)),
        ...(signal ? { signal } : {}),
      });
      if (!response.ok) {
        yield { type: "error", error: await geminiHttpError(response, context) };
        return;
      }
      if (!response.body) throw new Error("response has no body");
      context.phase = "stream";
      const state = new GeminiStreamState();
      for await (const event of parseSseStream(response.body)) {
        const parts = state.handle(JSON.parse(event.data) as GeminiChunk);
        for (const part of parts) yield part;
      }
      const end = state.end();
      if (end) {
        for (const part of end) yield part;
        return;
      }
      yield { type: "error", error: geminiError(new Error("stream ended without a finishReason"), context) };
    } catch (error) {
      yield { type: "error", error: geminiError(error, context) };
    }
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

/** Turns Gemini chunks into parts. Function calls arrive whole, so each is started and ended at once. */
class GeminiStreamState {
  private readonly blocks = new OpenBlockTracker();
  private readonly toolCalls = new ToolCallBuffer();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private hasToolCalls = false;

  handle(chunk: GeminiChunk): StreamPart[] {
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
