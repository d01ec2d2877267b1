import type { Usage } from "../model/usage.js";
import type { ModelInfo } from "./model-info.js";

/**
 * The cost of one call in USD (spec edges §3.1): uncached input at the input price, cache reads
 * and writes at theirs, output at the output price. The uncached part never goes below zero.
 */
export function computeCost(model: Pick<ModelInfo, "pricing">, usage: Usage): number {
  const { pricing } = model;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * pricing.inputPerMtok +
      usage.cacheReadTokens * pricing.cacheReadPerMtok +
      usage.cacheWriteTokens * pricing.cacheWritePerMtok +
      usage.outputTokens * pricing.outputPerMtok) /
    1_000_000
  );
}
