import type { ProviderError } from "../errors/provider-error.js";
import type { ProviderMetadata } from "./model-request.js";
import type { Usage } from "./usage.js";

/**
 * Why the model stopped. `tool-calls`: it wants tools run; `length`: it hit `maxTokens`;
 * `content-filter`: the vendor withheld output; `other`: anything else the vendor reported.
 */
export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

/**
 * The parts one `doStream` call yields, discriminated on `type` (modelled on vercel/ai
 * `LanguageModelV3StreamPart`). Order within a call:
 * blocks of `text-*`, `reasoning-*` and `tool-call-*` parts (each `start`, any `delta`s, `end`,
 * identified by `id`), a whole `tool-call` after each `tool-call-end`, any number of `usage` parts,
 * and last exactly one `finish` or one `error`. Nothing follows `finish` or `error`.
 */
export type StreamPart =
  /** A text block begins. `id` is unique within the call. */
  | { type: "text-start"; id: string }
  /** More text for block `id`. */
  | { type: "text-delta"; id: string; delta: string }
  /** Text block `id` is complete. */
  | { type: "text-end"; id: string }
  /** A reasoning (thinking) block begins. */
  | { type: "reasoning-start"; id: string }
  /** More reasoning text for block `id`. */
  | { type: "reasoning-delta"; id: string; delta: string }
  /**
   * Reasoning block `id` is complete. `signature` (Anthropic) or `redactedData` (Anthropic
   * redacted thinking) must be sent back with the block on the next turn; see `ReasoningPart`.
   */
  | { type: "reasoning-end"; id: string; signature?: string; redactedData?: string }
  /** The model starts calling tool `name`; `id` is the vendor's call id. */
  | { type: "tool-call-start"; id: string; name: string }
  /** More of the call's arguments JSON (a fragment; only the concatenation is valid JSON). */
  | { type: "tool-call-delta"; id: string; delta: string }
  /** The call's arguments are complete. */
  | { type: "tool-call-end"; id: string }
  /**
   * The whole call, after its `tool-call-end`. `arguments` is the JSON text the model produced
   * (`"{}"` when it sent none); `input` is it parsed, or `undefined` when it is not valid JSON.
   */
  | {
      type: "tool-call";
      id: string;
      name: string;
      arguments: string;
      input: unknown;
      providerMetadata?: ProviderMetadata;
    }
  /** Token counts for the call so far; a later `usage` part replaces an earlier one. */
  | { type: "usage"; usage: Usage }
  /** The model finished normally. `rawReason` is the vendor's own value, for logs. */
  | { type: "finish"; reason: FinishReason; rawReason?: string }
  /**
   * The attempt failed before any content and will be sent again after `waitMs` (ms) — `withRetry`
   * says so in the stream, so whoever consumes it (one agent) can tell its own user; `attempt` is
   * the 1-based number of the retry. Not content: nothing of the failed attempt reached the caller.
   */
  | {
      type: "retry";
      attempt: number;
      maxRetries: number;
      waitMs: number;
      error: ProviderError;
      rotated: boolean;
    }
  /** The call failed; see `ProviderError` and its `code`. Last part of the stream. */
  | { type: "error"; error: ProviderError };

export type StreamPartType = StreamPart["type"];
