import type { Scenario } from "../types.js";

const DEFAULT_MODELS = ["mock-model", "claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro"];

/** Model ids the scenario names (`models`, then string `match.model`s), or a default few. */
export function scenarioModels(scenario: Scenario): string[] {
  const names = new Set(scenario.models ?? []);
  for (const rule of scenario.rules) {
    if (typeof rule.match?.model === "string") names.add(rule.match.model);
  }
  return names.size > 0 ? [...names] : DEFAULT_MODELS;
}

/** `GET /v1/models` in OpenAI's list shape, Anthropic's when `anthropic-version` is sent, Gemini's under `/v1beta`. */
export function modelsBody(models: string[], style: "openai" | "anthropic" | "gemini"): unknown {
  const created = 1_700_000_000;
  if (style === "anthropic") {
    return {
      data: models.map((id) => ({
        type: "model",
        id,
        display_name: id,
        created_at: new Date(created * 1000).toISOString(),
      })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models.at(-1) ?? null,
    };
  }
  if (style === "gemini") {
    return {
      models: models.map((id) => ({
        name: `models/${id}`,
        displayName: id,
        supportedGenerationMethods: ["generateContent", "streamGenerateContent"],
      })),
    };
  }
  return {
    object: "list",
    data: models.map((id) => ({ id, object: "model", created, owned_by: "mock-llm" })),
  };
}
