import { geminiWire, ollamaWire, openAiWire, voyageWire } from "./embedding-wires.js";
import { RemoteEmbedder } from "./remote-embedder.js";

/** The embedding APIs nyzhi speaks. */
export type RemoteEmbeddingProvider = "voyage" | "openai" | "gemini" | "perplexity" | "ollama";

/** Providers that need a key, in the order `auto` tries them (Voyage's model is trained on code). */
export const KEYED_PROVIDERS = ["voyage", "openai", "gemini", "perplexity"] as const;
export type KeyedEmbeddingProvider = (typeof KEYED_PROVIDERS)[number];

/** Gemini's embedding model is asked for 768 numbers a vector (it makes 3,072 by default). */
const GEMINI_OUTPUT_DIMENSIONS = 768;

interface ProviderDefaults {
  baseUrl: string;
  model: string;
  /** Vector lengths of the models whose length is known before asking. */
  dimensions: Readonly<Record<string, number>>;
  /** The environment variable holding the key; undefined for a keyless local server. */
  envVar: string | undefined;
}

export const REMOTE_PROVIDER_DEFAULTS: Readonly<Record<RemoteEmbeddingProvider, ProviderDefaults>> = {
  voyage: {
    baseUrl: "https://api.voyageai.com/v1",
    model: "voyage-code-3",
    dimensions: { "voyage-code-3": 1024, "voyage-3": 1024, "voyage-3-lite": 512 },
    envVar: "VOYAGE_API_KEY",
  },
  openai: {
    baseUrl: "https://api.openai.com/v1",
    model: "text-embedding-3-small",
    dimensions: {
      "text-embedding-3-small": 1536,
      "text-embedding-3-large": 3072,
      "text-embedding-ada-002": 1536,
    },
    envVar: "OPENAI_API_KEY",
  },
  gemini: {
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    model: "gemini-embedding-001",
    dimensions: { "gemini-embedding-001": GEMINI_OUTPUT_DIMENSIONS, "text-embedding-004": 768 },
    envVar: "GEMINI_API_KEY",
  },
  perplexity: {
    baseUrl: "https://api.perplexity.ai/v1",
    model: "pplx-embed-v1-0.6b",
    dimensions: { "pplx-embed-v1-0.6b": 1024 },
    envVar: "PERPLEXITY_API_KEY",
  },
  ollama: {
    baseUrl: "http://127.0.0.1:11434",
    model: "nomic-embed-text",
    dimensions: {},
    envVar: undefined,
  },
};

export interface RemoteEmbedderConfig {
  provider: RemoteEmbeddingProvider;
  /** Empty or undefined: the provider's default model. */
  model?: string | undefined;
  apiKey: string | undefined;
  /** Empty or undefined: the provider's own API root. */
  baseUrl?: string | undefined;
  /** Test hooks: retry pacing (ms) and attempts. */
  retryDelayMs?: number;
  attempts?: number;
}

export function createRemoteEmbedder(config: RemoteEmbedderConfig): RemoteEmbedder {
  const defaults = REMOTE_PROVIDER_DEFAULTS[config.provider];
  const model = config.model || defaults.model;
  const baseUrl = (config.baseUrl || defaults.baseUrl).replace(/\/+$/, "");
  const wireOptions = { baseUrl, model, apiKey: config.apiKey };
  const wire =
    config.provider === "voyage"
      ? voyageWire(wireOptions)
      : config.provider === "gemini"
        ? geminiWire({ ...wireOptions, outputDimensionality: GEMINI_OUTPUT_DIMENSIONS })
        : config.provider === "ollama"
          ? ollamaWire(wireOptions)
          : openAiWire(wireOptions);
  return new RemoteEmbedder({
    provider: config.provider,
    model,
    dimensions: defaults.dimensions[model],
    wire,
    ...(config.retryDelayMs === undefined ? {} : { retryDelayMs: config.retryDelayMs }),
    ...(config.attempts === undefined ? {} : { attempts: config.attempts }),
  });
}
