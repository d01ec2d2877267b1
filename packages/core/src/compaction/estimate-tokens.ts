import type { ModelMessage, ModelRequest } from "@nyzhi/provider";
import { systemText } from "@nyzhi/provider";

/** Tokens counted for every message on top of its content (role markers, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens counted for one inline image; vendors bill images by size, this is a round guess. */
export const IMAGE_TOKENS = 1000;
/** Default fraction of the context window at which the thread is compacted (`agent.auto_compact_threshold`). */
export const DEFAULT_COMPACT_THRESHOLD = 0.85;

/** Tokens of a text: about four characters per token, plus one so empty texts still count. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4) + 1;
}

/**
 * A cheap estimate, in tokens, of what a request with this system prompt and thread costs:
 * text / 4 per text, reasoning and tool result; a tool call counts its name and JSON input;
 * images count `IMAGE_TOKENS`; every message adds `MESSAGE_OVERHEAD_TOKENS`. No tokenizer,
 * so it is only good for deciding when to compact.
 */
export function estimateTokens(system: ModelRequest["system"], messages: readonly ModelMessage[]): number {
  const prompt = systemText(system);
  let total = prompt === "" ? 0 : estimateTextTokens(prompt);
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/**
 * Estimates already made, per message: the thread is estimated before every model request, and
 * all but its newest messages were counted the step before. An entry is reused only while the
 * message still has as many parts (messages in a thread are not edited once added).
 */
const known = new WeakMap<ModelMessage, { parts: number; tokens: number }>();

/** The estimate for one message, overhead included. */
export function estimateMessageTokens(message: ModelMessage): number {
  const parts = typeof message.content === "string" ? -1 : message.content.length;
  const cached = known.get(message);
  if (cached?.parts === parts) return cached.tokens;
  const tokens = countMessageTokens(message);
  known.set(message, { parts, tokens });
  return tokens;
}

function countMessageTokens(message: ModelMessage): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === "string") return total + estimateTextTokens(message.content);
  for (const part of message.content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        total += estimateTextTokens(part.text);
        break;
      case "image":
        total += IMAGE_TOKENS;
        break;
      case "tool-call":
        total += estimateTextTokens(part.name + (JSON.stringify(part.input ?? {}) ?? ""));
        break;
      case "tool-result":
        total += estimateTextTokens(part.output);
        break;
    }
  }
  return total;
}

export interface ShouldCompactOptions {
  /** Estimated tokens of the next request (see `estimateTokens`). */
  estimate: number;
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** Fraction of the window, in (0, 1]. Default `DEFAULT_COMPACT_THRESHOLD`. */
  threshold?: number;
}

/** The token count above which compaction starts: `contextWindow × threshold`. */
export function compactionTarget(options: Omit<ShouldCompactOptions, "estimate">): number {
  return Math.floor(options.contextWindow * (options.threshold ?? DEFAULT_COMPACT_THRESHOLD));
}

/** True when the estimate is over the target; false for an unknown (non-positive) window. */
export function shouldCompact(options: ShouldCompactOptions): boolean {
  if (!(options.contextWindow > 0)) return false;
  return options.estimate > compactionTarget(options);
}
