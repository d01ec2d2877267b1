import type { Environment, NyzhiConfig } from "@nyzhi/config";
import type { Embedder } from "./embedder.js";
import {
  DEFAULT_LOCAL_MODEL,
  findLocalModel,
  findTransformers,
  modelCacheDir,
  transformersInstallHint,
} from "./find-transformers.js";
import { LocalEmbedder } from "./local-embedder.js";
import {
  createRemoteEmbedder,
  KEYED_PROVIDERS,
  type KeyedEmbeddingProvider,
  REMOTE_PROVIDER_DEFAULTS,
  type RemoteEmbeddingProvider,
} from "./remote-providers.js";

/**
 * The API key of an embeddings provider, as the host knows it (its credential store, config and
 * environment). `index` cannot read credentials itself; without this callback it reads only
 * `provider.<id>.api_key` and the provider's environment variable. A host must return API keys
 * only, never an OAuth token of a chat subscription.
 */
export type GetEmbeddingKey = (
  provider: KeyedEmbeddingProvider,
) => string | undefined | Promise<string | undefined>;

/** Which embedder `index.embedding` resolves to, and why. */
export interface EmbedderChoice {
  /** `openai`, `voyage`, `gemini`, `ollama`, `perplexity`, `local`, `none`, or a host's own embedder's provider. */
  provider: string;
  /** Undefined for `none`. */
  model: string | undefined;
  /** One sentence for `nyz index status`: why this one. */
  reason: string;
  /** Set when the configured embedder could not be used and a weaker one was chosen. */
  warning: string | undefined;
  /** The embedder (a worker or HTTP client, started lazily); undefined for `none`. */
  create(): Embedder | undefined;
}

export interface ChooseEmbedderOptions {
  config: NyzhiConfig;
  env: Environment;
  getKey?: GetEmbeddingKey | undefined;
  /** Where to resolve transformers.js from (a test's own folder); default this module. */
  transformersFrom?: string;
}

/**
 * Resolves `index.embedding`: a named provider when it can be used; `auto` (and `api`) tries
 * the keyed remotes in the order Voyage, OpenAI, Gemini, Perplexity, then (`auto` only) a local
 * transformers.js model already on disk; `none` (and the old `tfidf`) is full-text only.
 */
export async function chooseEmbedder(options: ChooseEmbedderOptions): Promise<EmbedderChoice> {
  const { config } = options;
  const requested = config.index.embedding;
  const setting = `index.embedding = "${requested}"`;
  if (requested === "none" || requested === "tfidf") {
    return none(
      requested === "tfidf"
        ? `${setting}: the hash embedder is replaced by full-text (BM25) search, so no vectors.`
        : `${setting}: full-text (BM25) search only.`,
      undefined,
    );
  }
  if (requested === "ollama") return remote(options, "ollama", undefined, `${setting}.`);
  if (requested === "local") return local(options, `${setting}.`, { requireModelOnDisk: false });
  if (requested === "auto" || requested === "api") {
    for (const provider of KEYED_PROVIDERS) {
      const key = await keyFor(provider, options);
      if (key) return remote(options, provider, key, `${setting}: a key for ${provider} is set.`);
    }
    if (requested === "auto") {
      const found = await local(options, `${setting}: no embeddings key is set; a local model is on disk.`, {
        requireModelOnDisk: true,
      });
      if (found.provider === "local") return found;
      return none(
        `${setting}: no embeddings key is set and no local model is ready (${found.reason}), so full-text (BM25) search only.`,
        undefined,
      );
    }
    return none(
      `${setting}: no embeddings key is set (${keyVariables()}), so full-text (BM25) search only.`,
      `index.embedding = "api" but no embeddings key is set: set one of ${keyVariables()}.`,
    );
  }
  const key = await keyFor(requested, options);
  if (key) return remote(options, requested, key, `${setting}.`);
  const variable = REMOTE_PROVIDER_DEFAULTS[requested].envVar;
  const fix = `set ${variable}, provider.${requested}.api_key, or run \`nyz login ${requested}\``;
  return none(
    `${setting} but no ${requested} key is set, so full-text (BM25) search only.`,
    `${setting} but no ${requested} key: ${fix}.`,
  );
}

function none(reason: string, warning: string | undefined): EmbedderChoice {
  return { provider: "none", model: undefined, reason, warning, create: () => undefined };
}

function remote(
  options: ChooseEmbedderOptions,
  provider: RemoteEmbeddingProvider,
  apiKey: string | undefined,
  reason: string,
): EmbedderChoice {
  const { index } = options.config;
  const model = index.embedding_model || REMOTE_PROVIDER_DEFAULTS[provider].model;
  let embedder: Embedder | undefined;
  return {
    provider,
    model,
    reason,
    warning: undefined,
    create: () => {
      embedder ??= createRemoteEmbedder({ provider, model, apiKey, baseUrl: index.embedding_base_url });
      return embedder;
    },
  };
}

async function local(
  options: ChooseEmbedderOptions,
  reason: string,
  { requireModelOnDisk }: { requireModelOnDisk: boolean },
): Promise<EmbedderChoice> {
  const { env, config } = options;
  const model = config.index.embedding_model || DEFAULT_LOCAL_MODEL;
  const transformersPath = findTransformers(env, options.transformersFrom);
  if (!transformersPath) {
    const hint = transformersInstallHint(env);
    if (requireModelOnDisk) return none("transformers.js is not installed", undefined);
    return none(
      `${reason.replace(/\.$/, "")} but transformers.js is not installed, so full-text (BM25) search only.`,
      hint,
    );
  }
  const modelFolder = findLocalModel(model, { modelDir: config.index.model_dir, env });
  if (!modelFolder && requireModelOnDisk) {
    return none(`model ${model} is not in ${config.index.model_dir ?? modelCacheDir(env)}`, undefined);
  }
  let embedder: Embedder | undefined;
  return {
    provider: "local",
    model,
    reason: modelFolder
      ? `${reason} Model ${model} from ${modelFolder}.`
      : `${reason} Model ${model} is downloaded on first use.`,
    warning: undefined,
    create: () => {
      embedder ??= new LocalEmbedder({ transformersPath, model, modelFolder, cacheDir: modelCacheDir(env) });
      return embedder;
    },
  };
}

async function keyFor(
  provider: KeyedEmbeddingProvider,
  options: ChooseEmbedderOptions,
): Promise<string | undefined> {
  const fromHost = await options.getKey?.(provider);
  if (fromHost) return fromHost;
  const entry = options.config.provider[provider];
  const fromConfig = typeof entry === "object" ? entry.api_key : undefined;
  if (fromConfig) return fromConfig;
  const variable = REMOTE_PROVIDER_DEFAULTS[provider].envVar;
  return variable ? options.env[variable] || undefined : undefined;
}

function keyVariables(): string {
  return KEYED_PROVIDERS.map((provider) => REMOTE_PROVIDER_DEFAULTS[provider].envVar).join(", ");
}
