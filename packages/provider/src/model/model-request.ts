/**
 * What the agent asks a model for, in one vendor-neutral shape. Each adapter converts it to its
 * wire format (`convert-to-*` files); nothing here is specific to a vendor except `providerOptions`.
 */

/** A JSON Schema object, passed to the vendor unchanged. */
export type JsonSchema = Record<string, unknown>;

/**
 * Vendor-specific data carried on a part so it can be sent back unchanged on the next turn,
 * keyed by adapter (`anthropic`, `openai`, `gemini`). Example: Gemini's `thoughtSignature`.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/**
 * One piece of the system prompt. `cache: true` marks the end of a stable prefix, so vendors with
 * explicit prompt caching (Anthropic `cache_control`) can cache everything up to it.
 */
export interface SystemFragment {
  text: string;
  cache?: boolean;
}

export interface TextPart {
  type: "text";
  text: string;
}

/** An image sent inline. `data` is base64 without a `data:` prefix. */
export interface ImagePart {
  type: "image";
  mediaType: string;
  data: string;
}

/**
 * Model reasoning from an earlier turn. Anthropic requires thinking blocks to come back with
 * their `signature` (or as `redactedData`) when a tool round continues.
 */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  signature?: string;
  /** Opaque encrypted reasoning (Anthropic `redacted_thinking`). */
  redactedData?: string;
}

/** A tool call the model made in an earlier turn. `input` is the parsed arguments object. */
export interface ToolCallPart {
  type: "tool-call";
  id: string;
  name: string;
  input: unknown;
  providerMetadata?: ProviderMetadata;
}

/** The result of running a tool. `isError` tells the model the call failed. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: string;
  isError?: boolean;
  /**
   * Images the tool returned (MCP tools can). Sent inside the result where the vendor allows it
   * (Anthropic, Gemini), else in a user message right after the results (OpenAI Chat).
   */
  images?: ImagePart[];
}

export type UserContentPart = TextPart | ImagePart;
export type AssistantContentPart = TextPart | ReasoningPart | ToolCallPart;

export interface UserMessage {
  role: "user";
  content: string | UserContentPart[];
}

export interface AssistantMessage {
  role: "assistant";
  content: string | AssistantContentPart[];
}

/** Results for the tool calls of the preceding assistant message. */
export interface ToolMessage {
  role: "tool";
  content: ToolResultPart[];
}

export type ModelMessage = UserMessage | AssistantMessage | ToolMessage;

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/**
 * Extended thinking / reasoning. Present means enabled. Each adapter uses what its API
 * understands: Anthropic budget or adaptive effort, OpenAI `reasoning_effort`, Gemini budget or level.
 */
export interface ThinkingOptions {
  /** Token budget for thinking (Anthropic `budget_tokens`, Gemini `thinkingBudget`). */
  budgetTokens?: number;
  /** Effort level: `minimal | low | medium | high | xhigh | max`, or a vendor value such as `on`. */
  effort?: string;
}

export interface ModelRequest {
  system?: string | SystemFragment[];
  messages: ModelMessage[];
  tools?: ToolDefinition[];
  /** Upper bound on generated tokens. Default: the adapter's (Anthropic 4096, others unset). */
  maxTokens?: number;
  /** Sampling temperature. Dropped when thinking is on (the vendors reject or ignore it). */
  temperature?: number;
  thinking?: ThinkingOptions;
  /**
   * Extra body fields merged into the vendor request last, keyed by adapter:
   * `anthropic`, `openai` (chat and responses), `gemini`.
   */
  providerOptions?: ProviderMetadata;
}

/** The system prompt as fragments, whichever form the request used. */
export function systemFragments(system: ModelRequest["system"]): SystemFragment[] {
  if (system === undefined || system === "") return [];
  if (typeof system === "string") return [{ text: system }];
  return system;
}

/** The system prompt as one string (fragments joined by blank lines). */
export function systemText(system: ModelRequest["system"]): string {
  return systemFragments(system)
    .map((fragment) => fragment.text)
    .join("\n\n");
}
