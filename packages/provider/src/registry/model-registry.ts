import type { ModelInfo, ModelTier, ThinkingSupport } from "./model-info.js";
import { DEFAULT_MODEL_IDS, MODEL_REGISTRY } from "./model-registry-data.js";

/** Registry models, all or one provider's, in registry order. Unknown providers have none. */
export function listModels(providerId?: string): ModelInfo[] {
  return providerId === undefined
    ? [...MODEL_REGISTRY]
    : MODEL_REGISTRY.filter((model) => model.providerId === providerId);
}

/**
 * Finds a model by `provider/id` or a bare id. A bare id matches the first model in registry
 * order (deterministic, unlike the Rust hash-map lookup). Ids that contain `/` themselves
 * (`meta-llama/…` on Together) also match bare.
 */
export function findModel(id: string, providerId?: string): ModelInfo | undefined {
  if (providerId !== undefined) {
    return MODEL_REGISTRY.find((model) => model.providerId === providerId && model.id === id);
  }
  const slash = id.indexOf("/");
  if (slash > 0) {
    const qualified = findModel(id.slice(slash + 1), id.slice(0, slash));
    if (qualified) return qualified;
  }
  return MODEL_REGISTRY.find((model) => model.id === id);
}

/** The first of the provider's models with `tier`, else its first model, else undefined. */
export function modelForTier(providerId: string, tier: ModelTier): ModelInfo | undefined {
  const models = listModels(providerId);
  return models.find((model) => model.tier === tier) ?? models[0];
}

/** The provider's default model id (spec edges §3.4 class defaults, else its first model). */
export function defaultModelId(providerId: string): string | undefined {
  return DEFAULT_MODEL_IDS[providerId] ?? listModels(providerId)[0]?.id;
}

/** A thinking level as the UI offers it, with an optional hint. */
export interface ThinkingLevelOption {
  level: string;
  description?: string;
}

/**
 * The thinking levels a picker offers for a model (spec edges §3.1 `user_facing_levels`):
 * always starting with `off`, except Gemini levels, which cannot be turned off.
 */
export function thinkingLevelOptions(thinking: ThinkingSupport | undefined): ThinkingLevelOption[] {
  if (!thinking) return [];
  const off = { level: "off" };
  switch (thinking.kind) {
    case "effort":
      return [off, ...thinking.levels.map((level) => withDescription(level, EFFORT_DESCRIPTIONS[level]))];
    case "adaptive":
      return [
        off,
        ...thinking.levels.map((level) =>
          withDescription(level, level === thinking.default ? "(default)" : undefined),
        ),
      ];
    case "budget": {
      const options: ThinkingLevelOption[] = [off];
      if (thinking.max >= 4096) options.push({ level: "low", description: "4K" });
      if (thinking.max >= 8192) options.push({ level: "medium", description: "8K" });
      if (thinking.max >= 16_384) options.push({ level: "high", description: "16K" });
      options.push({ level: "max", description: `${Math.floor(thinking.max / 1024)}K` });
      return options;
    }
    case "levels":
      return thinking.levels.map((level) => withDescription(level, LEVEL_DESCRIPTIONS[level]));
  }
}

const EFFORT_DESCRIPTIONS: Record<string, string> = {
  low: "Quick reasoning",
  medium: "Balanced",
  high: "Deep reasoning",
  xhigh: "Maximum reasoning",
};

const LEVEL_DESCRIPTIONS: Record<string, string> = {
  minimal: "Fastest, least thinking",
  low: "Light thinking",
  medium: "Balanced",
  high: "Deepest thinking",
};

function withDescription(level: string, description: string | undefined): ThinkingLevelOption {
  return description === undefined ? { level } : { level, description };
}
