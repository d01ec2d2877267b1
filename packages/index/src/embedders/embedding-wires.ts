import { EmbedderError } from "./embedder.js";
import type { EmbeddingWire } from "./remote-embedder.js";

interface WireOptions {
  /** API root without a trailing slash (`https://api.openai.com/v1`). */
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
}

/** OpenAI's `POST /embeddings` (also Perplexity's, which copies it). */
export function openAiWire(options: WireOptions): EmbeddingWire {
  return {
    batchSize: 100,
    request: (texts) => ({
      url: `${options.baseUrl}/embeddings`,
      headers: bearer(options.apiKey),
      body: { model: options.model, input: texts, encoding_format: "float" },
    }),
    parse: (body) => parseIndexedData(body, "openai"),
  };
}

/** Voyage's `POST /embeddings`: like OpenAI's, plus `input_type` (query or document). */
export function voyageWire(options: WireOptions): EmbeddingWire {
  return {
    batchSize: 64,
    request: (texts, purpose) => ({
      url: `${options.baseUrl}/embeddings`,
      headers: bearer(options.apiKey),
      body: { model: options.model, input: texts, input_type: purpose },
    }),
    parse: (body) => parseIndexedData(body, "voyage"),
  };
}

/** Gemini's `POST /models/{model}:batchEmbedContents`, key in `x-goog-api-key`. */
export function geminiWire(options: WireOptions & { outputDimensionality?: number }): EmbeddingWire {
  const model = options.model.startsWith("models/") ? options.model : `models/${options.model}`;
  return {
    batchSize: 100,
    request: (texts, purpose) => ({
      url: `${options.baseUrl}/${model}:batchEmbedContents`,
      headers: options.apiKey ? { "x-goog-api-key": options.apiKey } : {},
      body: {
        requests: texts.map((text) => ({
          model,
          content: { parts: [{ text }] },
          taskType: purpose === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT",
          ...(options.outputDimensionality ? { outputDimensionality: options.outputDimensionality } : {}),
        })),
      },
    }),
    parse: (body) => {
      const embeddings = (body as { embeddings?: Array<{ values?: number[] }> }).embeddings;
      if (!Array.isArray(embeddings)) throw malformed("gemini", "no `embeddings` array");
      return { vectors: embeddings.map((entry) => vectorOf(entry.values, "gemini")), tokens: undefined };
    },
  };
}

/** Ollama's `POST /api/embed` (a local server, no key). */
export function ollamaWire(options: WireOptions): EmbeddingWire {
  return {
    batchSize: 64,
    request: (texts) => ({
      url: `${options.baseUrl}/api/embed`,
      headers: bearer(options.apiKey),
      body: { model: options.model, input: texts },
    }),
    parse: (body) => {
      const { embeddings, prompt_eval_count: tokens } = body as {
        embeddings?: number[][];
        prompt_eval_count?: number;
      };
      if (!Array.isArray(embeddings)) throw malformed("ollama", "no `embeddings` array");
      return { vectors: embeddings.map((vector) => vectorOf(vector, "ollama")), tokens };
    },
  };
}

function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** `{ data: [{ index, embedding }], usage: { total_tokens } }`, sorted by index. */
function parseIndexedData(
  body: unknown,
  provider: string,
): { vectors: number[][]; tokens: number | undefined } {
  const { data, usage } = body as {
    data?: Array<{ index?: number; embedding?: number[] }>;
    usage?: { total_tokens?: number };
  };
  if (!Array.isArray(data)) throw malformed(provider, "no `data` array");
  const sorted = [...data].sort((left, right) => (left.index ?? 0) - (right.index ?? 0));
  return { vectors: sorted.map((entry) => vectorOf(entry.embedding, provider)), tokens: usage?.total_tokens };
}

function vectorOf(value: unknown, provider: string): number[] {
  if (!Array.isArray(value) || value.length === 0 || typeof value[0] !== "number") {
    throw malformed(provider, "an embedding is not a list of numbers");
  }
  return value as number[];
}

function malformed(provider: string, problem: string): EmbedderError {
  return new EmbedderError(`${provider} sent an embeddings response nyzhi cannot read: ${problem}.`);
}
