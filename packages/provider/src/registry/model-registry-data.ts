import type { ModelInfo, ModelTier, ThinkingSupport } from "./model-info.js";

/**
 * The hardcoded model registry (spec edges §3.4), in display order. A table rather than code:
 * one `model(...)` line per model. Prices are USD per Mtok as input/output/cache-read/cache-write.
 */

interface Row {
  name?: string;
  ctx: number;
  out: number;
  /** input, output, cache read, cache write. */
  price?: [number, number, number?, number?];
  tier: ModelTier;
  vision?: boolean;
  thinking?: ThinkingSupport;
}

function model(providerId: string, id: string, row: Row): ModelInfo {
  const [input, output, cacheRead, cacheWrite] = row.price ?? [0, 0];
  const info: ModelInfo = {
    id,
    name: row.name ?? id,
    providerId,
    contextWindow: row.ctx,
    maxOutputTokens: row.out,
    supportsTools: true,
    supportsStreaming: true,
    supportsVision: row.vision ?? false,
    pricing: {
      inputPerMtok: input,
      outputPerMtok: output,
      cacheReadPerMtok: cacheRead ?? 0,
      cacheWritePerMtok: cacheWrite ?? 0,
    },
    tier: row.tier,
  };
  if (row.thinking) info.thinking = row.thinking;
  return info;
}

const OPENAI_EFFORT: ThinkingSupport = {
  kind: "effort",
  levels: ["low", "medium", "high", "xhigh"],
  default: "medium",
};
const ADAPTIVE: ThinkingSupport = {
  kind: "adaptive",
  levels: ["low", "medium", "high", "max"],
  default: "high",
};
const GEMINI_PRO_LEVELS: ThinkingSupport = { kind: "levels", levels: ["low", "high"], default: "high" };
const GEMINI_FLASH_LEVELS: ThinkingSupport = {
  kind: "levels",
  levels: ["minimal", "low", "medium", "high"],
  default: "medium",
};
const KIMI_EFFORT: ThinkingSupport = { kind: "effort", levels: ["on"], default: "on" };

function kimi(providerId: string): ModelInfo[] {
  const row = { ctx: 262_144, out: 32_768 };
  return [
    model(providerId, "kimi-k2.5", {
      ...row,
      price: [0.6, 3, 0.1],
      tier: "high",
      vision: true,
      thinking: KIMI_EFFORT,
    }),
    model(providerId, "kimi-k2-0905-preview", { ...row, price: [0.6, 2.5, 0.15], tier: "medium" }),
    model(providerId, "kimi-k2-turbo-preview", { ...row, price: [1.15, 8, 0.15], tier: "high" }),
  ];
}

function minimax(providerId: string): ModelInfo[] {
  const row = { ctx: 204_800, out: 65_536 };
  return [
    model(providerId, "MiniMax-M2.5", { ...row, price: [0.3, 1.2, 0.03], tier: "high" }),
    model(providerId, "MiniMax-M2.5-highspeed", { ...row, price: [0.3, 2.4, 0.03], tier: "medium" }),
    model(providerId, "MiniMax-M2.1", { ...row, price: [0.27, 0.95, 0.03], tier: "medium" }),
  ];
}

function glm(providerId: string): ModelInfo[] {
  const row = { ctx: 200_000, out: 128_000 };
  return [
    model(providerId, "glm-5", { ...row, price: [1, 3.2, 0.2], tier: "high" }),
    model(providerId, "glm-5-code", { ...row, price: [1.2, 5, 0.24], tier: "high" }),
    model(providerId, "glm-4.7", { ...row, price: [0.6, 2.2, 0.11], tier: "medium" }),
    model(providerId, "glm-4.7-flashx", { ...row, price: [0.07, 0.4, 0.01], tier: "low" }),
  ];
}

export const MODEL_REGISTRY: readonly ModelInfo[] = [
  model("openai", "gpt-5.3-codex", {
    name: "GPT-5.3 Codex",
    ctx: 400_000,
    out: 128_000,
    price: [2, 8, 0.5],
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("openai", "gpt-5.2-codex", {
    ctx: 272_000,
    out: 100_000,
    price: [2, 8, 0.5],
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("openai", "gpt-5.2", {
    ctx: 272_000,
    out: 100_000,
    price: [2, 8, 0.5],
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("anthropic", "claude-opus-4-6-20260205", {
    name: "Claude Opus 4.6",
    ctx: 1_000_000,
    out: 128_000,
    price: [15, 75, 1.5, 18.75],
    tier: "high",
    vision: true,
    thinking: ADAPTIVE,
  }),
  model("anthropic", "claude-sonnet-4-6-20260217", {
    name: "Claude Sonnet 4.6",
    ctx: 1_000_000,
    out: 16_384,
    price: [3, 15, 0.3, 3.75],
    tier: "medium",
    vision: true,
    thinking: ADAPTIVE,
  }),
  model("anthropic", "claude-haiku-4-5-20251022", {
    ctx: 200_000,
    out: 8192,
    price: [0.8, 4, 0.08, 1],
    tier: "low",
    vision: true,
  }),
  ...["gemini-3.1-pro-preview", "gemini-3.1-pro-preview-customtools"].map((id) =>
    model("gemini", id, {
      ctx: 1_048_576,
      out: 65_536,
      price: [2, 12, 0.2, 0.375],
      tier: "high",
      vision: true,
      thinking: GEMINI_PRO_LEVELS,
    }),
  ),
  model("gemini", "gemini-3-flash", {
    ctx: 1_048_576,
    out: 65_536,
    price: [0.15, 0.6, 0.0375],
    tier: "low",
    vision: true,
    thinking: GEMINI_FLASH_LEVELS,
  }),
  model("gemini", "gemini-3-pro-preview", {
    ctx: 1_048_576,
    out: 65_536,
    price: [1.25, 10, 0.3125],
    tier: "high",
    vision: true,
    thinking: GEMINI_PRO_LEVELS,
  }),
  model("gemini", "gemini-2.5-flash", {
    ctx: 1_048_576,
    out: 65_536,
    price: [0.15, 0.6, 0.0375],
    tier: "low",
    vision: true,
    thinking: { kind: "budget", max: 32_768, default: 16_384 },
  }),
  model("deepseek", "deepseek-chat", {
    name: "DeepSeek V3.2",
    ctx: 164_000,
    out: 16_384,
    price: [0.27, 1.1, 0.07],
    tier: "medium",
  }),
  model("deepseek", "deepseek-reasoner", {
    name: "DeepSeek R1",
    ctx: 164_000,
    out: 16_384,
    price: [0.55, 2.19, 0.14],
    tier: "high",
  }),
  model("groq", "llama-3.3-70b-versatile", {
    ctx: 128_000,
    out: 32_768,
    price: [0.59, 0.79],
    tier: "medium",
  }),
  model("groq", "llama-3.1-8b-instant", { ctx: 128_000, out: 8192, price: [0.05, 0.08], tier: "low" }),
  ...kimi("kimi"),
  ...kimi("kimi-coding"),
  ...minimax("minimax"),
  ...minimax("minimax-coding"),
  ...glm("glm"),
  ...glm("glm-coding"),
  model("together", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-Turbo", {
    ctx: 524_288,
    out: 65_536,
    price: [0.27, 0.85],
    tier: "medium",
    vision: true,
  }),
  model("together", "Qwen/Qwen3-235B-A22B-Instruct-Turbo", {
    ctx: 131_072,
    out: 32_768,
    price: [0.2, 0.6],
    tier: "medium",
  }),
  model("together", "deepseek-ai/DeepSeek-R1", {
    ctx: 164_000,
    out: 16_384,
    price: [0.55, 2.19],
    tier: "high",
  }),
  model("ollama", "qwen3:32b", { ctx: 131_072, out: 32_768, tier: "medium" }),
  model("ollama", "llama3.3:70b", { ctx: 128_000, out: 32_768, tier: "medium" }),
  model("ollama", "devstral:24b", { ctx: 131_072, out: 32_768, tier: "medium" }),
  ...["claude-4.6-sonnet", "claude-4.6-opus"].map((id) =>
    model("cursor", id, { ctx: 200_000, out: 64_000, tier: "high", vision: true }),
  ),
  model("cursor", "gpt-5.3-codex", {
    ctx: 272_000,
    out: 128_000,
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("cursor", "gpt-5.2", {
    ctx: 272_000,
    out: 100_000,
    tier: "medium",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("cursor", "gemini-3.1-pro", { ctx: 1_048_576, out: 65_536, tier: "high", vision: true }),
  model("cursor", "gemini-3-flash", { ctx: 1_048_576, out: 65_536, tier: "low", vision: true }),
  model("cursor", "auto", {
    name: "Auto (server picks)",
    ctx: 200_000,
    out: 64_000,
    tier: "medium",
    vision: true,
  }),
  model("github-copilot", "gpt-5.3-codex", {
    ctx: 400_000,
    out: 128_000,
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("github-copilot", "claude-opus-4-6-20260205", {
    ctx: 200_000,
    out: 64_000,
    tier: "high",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("github-copilot", "claude-sonnet-4-6-20260217", {
    ctx: 200_000,
    out: 64_000,
    tier: "high",
    vision: true,
  }),
  model("github-copilot", "gpt-5.2", { ctx: 200_000, out: 64_000, tier: "high", vision: true }),
  model("github-copilot", "gemini-3.1-pro", { ctx: 1_000_000, out: 65_536, tier: "high", vision: true }),
  model("github-copilot", "o4-mini", {
    ctx: 200_000,
    out: 100_000,
    tier: "medium",
    vision: true,
    thinking: OPENAI_EFFORT,
  }),
  model("github-copilot", "gemini-3-flash", { ctx: 1_000_000, out: 65_536, tier: "medium", vision: true }),
  model("github-copilot", "claude-haiku-4-5-20251022", {
    ctx: 200_000,
    out: 8192,
    tier: "low",
    vision: true,
  }),
];

/**
 * Default model per provider when neither the call nor config names one (spec edges §3.4 class
 * defaults); other providers default to their first registry model.
 */
export const DEFAULT_MODEL_IDS: Readonly<Record<string, string>> = {
  openai: "gpt-5.3-codex",
  anthropic: "claude-sonnet-4-6-20260217",
  gemini: "gemini-3-flash",
  "claude-sdk": "claude-sonnet-4-6-20260217",
  codex: "gpt-5.3-codex",
  cursor: "claude-4.6-sonnet",
};
