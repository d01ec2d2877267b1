import { describe, expect, it } from "vitest";
import { computeCost } from "./compute-cost.js";
import { formatContextSize, formatModelTable } from "./format-model-table.js";
import {
  defaultModelId,
  findModel,
  listModels,
  modelForTier,
  thinkingLevelOptions,
} from "./model-registry.js";

describe("model registry", () => {
  it("lists a provider's models in registry order and none for unknown providers", () => {
    expect(listModels("anthropic").map((model) => model.id)).toEqual([
      "claude-opus-4-6-20260205",
      "claude-sonnet-4-6-20260217",
      "claude-haiku-4-5-20251022",
    ]);
    expect(listModels("claude-sdk")).toEqual([]);
    expect(listModels("openrouter")).toEqual([]);
  });

  it("finds by provider/id, by bare id (first in order) and ids containing a slash", () => {
    expect(findModel("gemini/gemini-3-flash")?.providerId).toBe("gemini");
    expect(findModel("gpt-5.3-codex")?.providerId).toBe("openai");
    expect(findModel("cursor/gpt-5.3-codex")?.providerId).toBe("cursor");
    expect(findModel("deepseek-ai/DeepSeek-R1")?.providerId).toBe("together");
    expect(findModel("kimi-k2.5", "kimi-coding")?.providerId).toBe("kimi-coding");
    expect(findModel("nope")).toBeUndefined();
  });

  it("keeps the spec's figures for a model", () => {
    expect(findModel("anthropic/claude-opus-4-6-20260205")).toEqual({
      id: "claude-opus-4-6-20260205",
      name: "Claude Opus 4.6",
      providerId: "anthropic",
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      supportsTools: true,
      supportsStreaming: true,
      supportsVision: true,
      pricing: { inputPerMtok: 15, outputPerMtok: 75, cacheReadPerMtok: 1.5, cacheWritePerMtok: 18.75 },
      tier: "high",
      thinking: { kind: "adaptive", levels: ["low", "medium", "high", "max"], default: "high" },
    });
  });

  it("picks the first model of a tier, else the provider's first model", () => {
    expect(modelForTier("anthropic", "low")?.id).toBe("claude-haiku-4-5-20251022");
    expect(modelForTier("glm", "medium")?.id).toBe("glm-4.7");
    expect(modelForTier("openai", "low")?.id).toBe("gpt-5.3-codex");
    expect(modelForTier("openrouter", "low")).toBeUndefined();
  });

  it("has class defaults and first-model defaults", () => {
    expect(defaultModelId("anthropic")).toBe("claude-sonnet-4-6-20260217");
    expect(defaultModelId("gemini")).toBe("gemini-3-flash");
    expect(defaultModelId("groq")).toBe("llama-3.3-70b-versatile");
    expect(defaultModelId("openrouter")).toBeUndefined();
  });

  it("offers thinking levels per kind", () => {
    expect(
      thinkingLevelOptions(findModel("gemini-2.5-flash")?.thinking).map((option) => option.level),
    ).toEqual(["off", "low", "medium", "high", "max"]);
    expect(thinkingLevelOptions(findModel("gemini-3-flash")?.thinking)[0]?.level).toBe("minimal");
    expect(thinkingLevelOptions(findModel("kimi-k2.5")?.thinking)).toEqual([
      { level: "off" },
      { level: "on" },
    ]);
  });
});

describe("computeCost", () => {
  it("prices uncached input, cache reads, cache writes and output separately", () => {
    const sonnet = findModel("claude-sonnet-4-6-20260217")!;
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 500_000,
      cacheWriteTokens: 100_000,
    };
    // 400k uncached × $3 + 500k × $0.3 + 100k × $3.75 + 100k × $15
    expect(computeCost(sonnet, usage)).toBeCloseTo(1.2 + 0.15 + 0.375 + 1.5, 10);
  });

  it("never prices negative uncached input", () => {
    const usage = { inputTokens: 10, outputTokens: 0, cacheReadTokens: 100, cacheWriteTokens: 0 };
    expect(computeCost(findModel("gpt-5.2")!, usage)).toBeCloseTo((100 * 0.5) / 1e6, 12);
  });
});

describe("formatModelTable", () => {
  it("formats context sizes like the Rust port", () => {
    expect(formatContextSize(1_048_576)).toBe("1M");
    expect(formatContextSize(164_000)).toBe("164K");
    expect(formatContextSize(8192)).toBe("8K");
  });

  it("renders aligned rows", () => {
    const table = formatModelTable(listModels("groq"));
    expect(table.split("\n")).toEqual([
      "PROVIDER  MODEL                    CONTEXT  MAX OUT  IN/MTOK  OUT/MTOK  TIER    THINKING",
      "groq      llama-3.3-70b-versatile  128K     32K      $0.59    $0.79     medium  -",
      "groq      llama-3.1-8b-instant     128K     8K       $0.05    $0.08     low     -",
    ]);
  });
});
