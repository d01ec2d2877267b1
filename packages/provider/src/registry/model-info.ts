/** A routing tier: `low` for cheap quick work, `high` for the hardest (spec edges §3.10). */
export type ModelTier = "low" | "medium" | "high";

/** USD per million tokens. */
export interface ModelPricing {
  inputPerMtok: number;
  outputPerMtok: number;
  cacheReadPerMtok: number;
  cacheWritePerMtok: number;
}

/**
 * How a model takes thinking controls (spec edges §3.1):
 * - `effort`: a reasoning-effort level (OpenAI, Kimi `on`);
 * - `adaptive`: Anthropic 4.6 adaptive thinking with an effort;
 * - `budget`: a thinking-token budget up to `max` tokens;
 * - `levels`: Gemini thinking levels (no "off").
 */
export type ThinkingSupport =
  | { kind: "effort"; levels: string[]; default: string }
  | { kind: "adaptive"; levels: string[]; default: string }
  | { kind: "budget"; max: number; default: number }
  | { kind: "levels"; levels: string[]; default: string };

export interface ModelInfo {
  id: string;
  name: string;
  providerId: string;
  /** Tokens. */
  contextWindow: number;
  /** Tokens. */
  maxOutputTokens: number;
  supportsTools: boolean;
  supportsStreaming: boolean;
  supportsVision: boolean;
  pricing: ModelPricing;
  tier: ModelTier;
  thinking?: ThinkingSupport;
}
