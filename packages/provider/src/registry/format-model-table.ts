import type { ModelInfo } from "./model-info.js";
import { listModels } from "./model-registry.js";

/** A context size as `1M` (≥ 1,000,000 tokens) or `200K` (integer division, spec edges §3.1). */
export function formatContextSize(tokens: number): string {
  return tokens >= 1_000_000 ? `${Math.floor(tokens / 1_000_000)}M` : `${Math.floor(tokens / 1000)}K`;
}

function formatPrice(perMtok: number): string {
  return perMtok === 0 ? "-" : `$${Number(perMtok.toFixed(4))}`;
}

function thinkingLabel(model: ModelInfo): string {
  const thinking = model.thinking;
  if (!thinking) return "-";
  if (thinking.kind === "budget") return `budget ≤${formatContextSize(thinking.max)}`;
  return `${thinking.kind} ${thinking.levels.join("/")}`;
}

/**
 * The plain-text table `nyz models` prints: one row per model with provider, id, context,
 * max output, input/output price per Mtok, tier and thinking support. Columns are padded to fit.
 */
export function formatModelTable(models: readonly ModelInfo[] = listModels()): string {
  const header = ["PROVIDER", "MODEL", "CONTEXT", "MAX OUT", "IN/MTOK", "OUT/MTOK", "TIER", "THINKING"];
  const rows = models.map((model) => [
    model.providerId,
    model.id,
    formatContextSize(model.contextWindow),
    formatContextSize(model.maxOutputTokens),
    formatPrice(model.pricing.inputPerMtok),
    formatPrice(model.pricing.outputPerMtok),
    model.tier,
    thinkingLabel(model),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => Array.from(row[column] ?? "").length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [render(header), ...rows.map(render)].join("\n");
}
