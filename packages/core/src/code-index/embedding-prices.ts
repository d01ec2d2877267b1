/**
 * List prices of the embedding models the remote embedders of `@nyzhi/index` use (their defaults
 * and the models whose vector length they know), in US dollars per million input tokens, as the
 * vendors published them (OpenAI, Voyage and Gemini pricing pages, 2025). The provider registry
 * holds chat models only, so embeddings keep their own small table. A model not listed costs 0:
 * its tokens still count, its cost is unknown (Perplexity has published no per-token price;
 * Ollama runs on your machine).
 */
export const EMBEDDING_PRICES_PER_MTOK: Readonly<Record<string, number>> = {
  "openai:text-embedding-3-small": 0.02,
  "openai:text-embedding-3-large": 0.13,
  "openai:text-embedding-ada-002": 0.1,
  "voyage:voyage-code-3": 0.18,
  "voyage:voyage-3": 0.06,
  "voyage:voyage-3-lite": 0.02,
  "gemini:gemini-embedding-001": 0.15,
  "gemini:text-embedding-004": 0,
};

/**
 * US dollars per million tokens of the embedder `id` (`provider:model` or
 * `provider:model:dimensions`, as `@nyzhi/index` names embedders); 0 when unknown.
 */
export function embeddingPricePerMtok(id: string | undefined): number {
  if (!id) return 0;
  for (const [model, price] of Object.entries(EMBEDDING_PRICES_PER_MTOK)) {
    if (id === model || id.startsWith(`${model}:`)) return price;
  }
  return 0;
}

/** The cost in US dollars of `tokens` embedded by the embedder `id`. */
export function embeddingCostUsd(id: string | undefined, tokens: number): number {
  return (tokens * embeddingPricePerMtok(id)) / 1_000_000;
}
