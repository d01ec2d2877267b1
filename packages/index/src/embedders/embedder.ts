import { NyzhiError } from "@nyzhi/config";

/** Tokens an embedder has been billed for so far, as its API reports them. */
export interface EmbedderUsage {
  tokens: number;
}

/**
 * Turns texts into vectors. Every embedder — remote API, local transformers.js — sits behind
 * this one interface, so the store and search never know which one they hold.
 */
export interface Embedder {
  /**
   * `provider:model:dimensions` (`openai:text-embedding-3-small:1536`). Until the dimension is
   * known (the first response tells it) the id is `provider:model`. An index built by another id
   * is rebuilt.
   */
  readonly id: string;
  /** `openai`, `voyage`, `gemini`, `ollama`, `perplexity`, `local`, or a test's own name. */
  readonly provider: string;
  readonly model: string;
  /** Length of each vector; undefined until known. */
  readonly dimensions: number | undefined;
  /** One vector per text, in order: the texts are documents (chunks) to be searched. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[] | number[][]>;
  /**
   * The vector of a search query, for models that embed queries differently from documents
   * (Voyage's and Gemini's query task types). Without it, search uses `embed([query])`.
   */
  embedQuery?(query: string, signal?: AbortSignal): Promise<Float32Array | number[]>;
  /** Tokens used so far, when the API reports them. */
  readonly usage?: EmbedderUsage;
  /** Frees what the embedder holds (a worker thread). */
  close?(): Promise<void>;
}

/** An embedder failed: a refused key, a server error after retries, a model that would not load. */
export class EmbedderError extends NyzhiError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("embedder_failed", message, options);
  }
}

/** `provider:model` plus `:dimensions` once known. */
export function embedderId(provider: string, model: string, dimensions: number | undefined): string {
  return dimensions === undefined ? `${provider}:${model}` : `${provider}:${model}:${dimensions}`;
}

/**
 * Whether an index built by `storedId` can be kept with `embedder`: the same id, or — while the
 * embedder does not know its dimension yet — the same provider and model.
 */
export function embedderMatches(storedId: string | undefined, embedder: Embedder | undefined): boolean {
  if (!embedder) return storedId === undefined;
  if (storedId === undefined) return false;
  if (embedder.dimensions !== undefined) return storedId === embedder.id;
  return storedId === embedder.id || storedId.startsWith(`${embedder.id}:`);
}
