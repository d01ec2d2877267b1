/**
 * The scenario format of the mock LLM server: the contract between the server and every test,
 * benchmark and demo that scripts it. Scenario files are JSON of type `Scenario`.
 */

/** Wire formats the server speaks. */
export type WireApi = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

export interface Scenario {
  /** Rules are tried in order; the first whose `match` fits the request answers it. */
  rules: Rule[];
  /** Answer when no rule matches. Default: a 500 whose body names the unmatched request. */
  fallback?: MockResponse;
  /** Model ids listed by `GET /v1/models`, in addition to the string `match.model` values of the rules. */
  models?: string[];
}

export interface Rule {
  /** Shown in recorded requests (`rule`) and errors. Default `rule#<index>`. */
  name?: string;
  match?: RuleMatch;
  /** How many times this rule may answer; after that it is skipped. Default unlimited. */
  times?: number;
  /** One response, or a list used in turn (the last repeats). */
  response: MockResponse | MockResponse[];
}

/** Every given field must hold. Strings match as substrings; `{ regex }` as a JS regex. */
export interface RuleMatch {
  api?: WireApi;
  model?: TextMatch;
  /** The system prompt (Anthropic `system`, OpenAI system/developer messages, Gemini systemInstruction). */
  system?: TextMatch;
  /** Text of the last user message (tool results excluded). */
  lastUser?: TextMatch;
  /** Whether the last message of the request is a tool result. */
  lastIsToolResult?: boolean;
  /** Every listed tool name is offered. */
  toolsOffered?: string[];
  /** None of the listed tool names is offered. */
  toolsNotOffered?: string[];
  /** 1-based index of the request among all requests the server has received. */
  requestIndex?: number;
  /** Any text anywhere in the request's messages. */
  anyMessage?: TextMatch;
  /** A header must be present with this value (substring). Names are lowercase. */
  header?: Record<string, TextMatch>;
}

export type TextMatch = string | { regex: string; flags?: string };

export interface MockResponse {
  /** Text answer; an array gives the chunks exactly. A string is split into a few chunks. */
  text?: string | string[];
  /** Thinking / reasoning text, streamed before the text. */
  reasoning?: string | string[];
  toolCalls?: MockToolCall[];
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number };
  /** Default: `tool_calls` when toolCalls are present, else `stop`. */
  finishReason?: "stop" | "tool_calls" | "length";
  /** Wait before the response starts, ms. */
  delayMs?: number;
  /** Wait between stream chunks, ms. */
  chunkDelayMs?: number;
  fault?: MockFault;
}

export interface MockToolCall {
  name: string;
  /** Object (serialised by the server) or a raw JSON string. */
  arguments: Record<string, unknown> | string;
  /** Default: a unique id per call. */
  id?: string;
  /** Number of chunks the argument JSON is split into when streaming. Default 3. */
  argumentChunks?: number;
}

export type MockFault =
  /**
   * An HTTP error status with the provider's error body shape; `retryAfter` in seconds sets `Retry-After`.
   * With `afterChunks` on a streaming request, the stream opens with 200 instead and, after that many
   * events, sends the provider's in-stream error event (e.g. Anthropic `event: error` overloaded) and ends.
   */
  | { type: "status"; status: number; retryAfter?: number; message?: string; afterChunks?: number }
  /**
   * Accept the request and never finish it (until the client gives up or the server closes).
   * With `afterChunks`, the stream opens and sends that many SSE events first.
   */
  | { type: "hang"; afterChunks?: number }
  /**
   * Stream `afterChunks` SSE events, then the first half of the next one, then destroy the socket.
   * A non-streaming answer sends half of its body and is cut the same way.
   */
  | { type: "cut"; afterChunks: number }
  /** Send a stream event (or body) that is not valid JSON, after `afterChunks` good events (default 1). */
  | { type: "malformed"; afterChunks?: number };

/** What the server recorded of one request, for assertions. */
export interface RecordedRequest {
  index: number;
  /** `embeddings`: OpenAI's `POST /v1/embeddings`, answered without rules (see the README). */
  api: WireApi | "models" | "embeddings" | "unknown";
  method: string;
  path: string;
  headers: Record<string, string>;
  model: string | undefined;
  stream: boolean;
  system: string | undefined;
  /** Messages normalised to `{ role, text, toolCalls?, toolResults? }`, plus the raw body. */
  messages: RecordedMessage[];
  toolsOffered: string[];
  body: unknown;
  rule: string | undefined;
  /** HTTP status sent; undefined while the response has not started (e.g. a hang). */
  status: number | undefined;
  /** Which TCP connection carried it, numbered as the server accepted them (from 1; `reset()` restarts). */
  connection: number;
  /** Epoch ms (fractional) when the request arrived. */
  startedAt: number;
  /** Epoch ms when the response finished or its connection closed; undefined while open. */
  endedAt: number | undefined;
}

export interface RecordedMessage {
  role: "user" | "assistant" | "tool" | "system";
  text: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolResults?: { id: string; content: string; isError?: boolean }[];
}
