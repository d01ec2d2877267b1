import {
  AccountRotation,
  type Credential,
  type CredentialStore,
  ensureFresh,
  type OAuthProviderTable,
  openCredentialStore,
  requireCredential,
  resolveCredential,
} from "@nyzhi/auth";
import {
  type Environment,
  findBuiltInProvider,
  isKnownProvider,
  type NyzhiConfig,
  NyzhiError,
  UnknownProviderError,
} from "@nyzhi/config";
import {
  computeCost,
  createLanguageModel,
  createStreamLimiter,
  defaultModelId,
  findModel,
  type LanguageModel,
  type ModelInfo,
  modelForTier,
  type RetryEvent,
  type StreamLimiter,
  type Usage,
  withRetry,
  withStreamLimit,
} from "@nyzhi/provider";

/** A model ready to use, with what the runtime needs to know about it. */
export interface ResolvedModel {
  model: LanguageModel;
  providerId: string;
  modelId: string;
  /** Registry facts (context window, prices) when the model is known. */
  info: ModelInfo | undefined;
  /** Tokens the model can take: `provider.<id>.context_window`, else the registry's. */
  contextWindow: number | undefined;
  /** USD for a usage; 0 when prices are unknown. */
  costOf: (usage: Usage) => number;
  /** The limiter every stream of `model` waits on (`agent.max_concurrent_streams`), when it has one. */
  streamLimiter?: StreamLimiter;
}

/** Which model to use: `provider/model`, a bare model id (of the default provider), or a tier alias. */
export type ModelSpec = string | undefined;

export interface ModelResolverOptions {
  config: NyzhiConfig;
  env: Environment;
  /**
   * Where `provider.default` came from (`--provider`, `NYZHI_PROVIDER`, a config file), named
   * when it is not a known provider. Default: `provider.default`.
   */
  providerSource?: string | undefined;
  /** `--api-key`-style credential, highest priority, for the default provider only. */
  flagApiKey?: string;
  /** Default: opened lazily (keychain, else auth.json) only when env and config have no key. */
  store?: CredentialStore;
  /** Called before each retry of any model this resolver built. */
  onRetry?: (event: RetryEvent & { providerId: string; modelId: string }) => void;
  /**
   * Shared by every model this resolver builds (the lead's and each subagent's). Default: one
   * limiter of `agent.max_concurrent_streams` slots, created with the resolver.
   */
  streamLimiter?: StreamLimiter;
  /** OAuth endpoints for refreshing a rejected token. Default: the built-in providers' (tests point them at a fake). */
  oauthProviders?: OAuthProviderTable;
}

const TIER_ALIASES: Record<string, "high" | "medium" | "low"> = {
  opus: "high",
  sonnet: "medium",
  haiku: "low",
};

/**
 * Built-in providers whose own model ids contain `/` (`meta-llama/…`, `anthropic/claude-…` on
 * OpenRouter): there a `x/y` whose `x` is no provider is a model id. Providers of your own
 * (`[provider.<id>]` tables) count as such too.
 */
const SLASHED_MODEL_ID_PROVIDERS: ReadonlySet<string> = new Set(["openrouter", "together", "groq", "ollama"]);

/** Splits `provider/model` when the prefix names a known or configured provider. */
export function parseModelSpec(spec: string, config: NyzhiConfig): { providerId?: string; modelId: string } {
  const slash = spec.indexOf("/");
  if (slash > 0) {
    const prefix = spec.slice(0, slash);
    if (isKnownProvider(prefix, config)) return { providerId: prefix, modelId: spec.slice(slash + 1) };
  }
  return { modelId: spec };
}

/**
 * Throws UnknownProviderError when `spec` reads as `provider/model` with a provider nobody knows,
 * for a default provider whose model ids never contain `/` (so the prefix cannot be part of one).
 */
function checkModelPrefix(spec: string, defaultProvider: string, config: NyzhiConfig): void {
  const slash = spec.indexOf("/");
  if (slash <= 0 || isKnownProvider(spec.slice(0, slash), config) || findModel(spec)) return;
  const takesSlashedIds =
    SLASHED_MODEL_ID_PROVIDERS.has(defaultProvider) || !findBuiltInProvider(defaultProvider);
  if (takesSlashedIds) return;
  const rest = spec.slice(slash + 1);
  throw new UnknownProviderError(spec.slice(0, slash), {
    source: `model '${spec}'`,
    config,
    suggest: (nearest) => `${nearest}/${rest}`,
  });
}

/**
 * Builds models from config and credentials: the lead's, and any a subagent asks for. Each model
 * is wrapped in retries (attempts and backoff from `agent.retry`) with multi-account rotation on
 * 429 when the credential came from the store. Inside the retries, every model shares one stream
 * limiter, so at most `agent.max_concurrent_streams` requests are open at once (a backoff holds no
 * slot) and the rest wait in line.
 */
export function createModelResolver(
  options: ModelResolverOptions,
): (spec?: ModelSpec) => Promise<ResolvedModel> {
  const { config, env } = options;
  const streamLimiter = options.streamLimiter ?? createStreamLimiter(config.agent.max_concurrent_streams);
  let store: Promise<CredentialStore> | undefined = options.store
    ? Promise.resolve(options.store)
    : undefined;
  const openStore = () => {
    store ??= openCredentialStore({ env }).then((opened) => opened.store);
    return store;
  };

  const credentialFor = async (providerId: string): Promise<Credential | undefined> => {
    const entry = config.provider[providerId];
    const configApiKey = typeof entry === "object" ? entry.api_key : undefined;
    const base = {
      env,
      ...(configApiKey ? { configApiKey } : {}),
      ...(options.flagApiKey && providerId === config.provider.default ? { flag: options.flagApiKey } : {}),
    };
    const direct = await resolveCredential(providerId, base);
    if (direct) return direct;
    // A local server (Ollama) may need no key at all.
    if (providerId === "ollama") return resolveCredential(providerId, { ...base, store: await openStore() });
    return requireCredential(providerId, { ...base, store: await openStore() });
  };

  return async (spec) => {
    const defaultProvider = config.provider.default;
    let providerId = defaultProvider;
    let modelId: string | undefined;
    const usesDefault = !spec || !parseModelSpec(spec, config).providerId;
    if (usesDefault && !isKnownProvider(defaultProvider, config)) {
      throw new UnknownProviderError(defaultProvider, {
        source: options.providerSource ?? "provider.default",
        config,
      });
    }
    if (spec) {
      const tier = TIER_ALIASES[spec.toLowerCase()];
      if (tier) {
        modelId = modelForTier(providerId, tier)?.id;
      } else {
        checkModelPrefix(spec, defaultProvider, config);
        const parsed = parseModelSpec(spec, config);
        providerId = parsed.providerId ?? providerId;
        modelId = parsed.modelId;
      }
    }
    const entry = config.provider[providerId];
    modelId ??= (typeof entry === "object" ? entry.model : undefined) ?? defaultModelId(providerId);
    if (!modelId) {
      throw new NyzhiError(
        "no_model",
        `No model for provider '${providerId}'. Pass --model or set provider.${providerId}.model.`,
      );
    }
    const credential = await credentialFor(providerId);
    const build = (withCredential: Credential | undefined) =>
      withStreamLimit(
        createLanguageModel({ providerId, modelId, credential: withCredential, config, env }),
        streamLimiter,
      );
    const rotation =
      credential?.source === "store" ? new AccountRotation({ store: await openStore() }) : undefined;
    const model = withRetry(build(credential), {
      maxRetries: config.agent.retry.max_retries,
      initialBackoffMs: config.agent.retry.initial_backoff_ms,
      maxBackoffMs: config.agent.retry.max_backoff_ms,
      ...(options.onRetry
        ? { onRetry: (event: RetryEvent) => options.onRetry?.({ ...event, providerId, modelId }) }
        : {}),
      ...(credential ? { credential, createModel: (next: Credential) => build(next) } : {}),
      ...(rotation ? { onRateLimited: rotation.onRateLimited } : {}),
      // A 401 on an OAuth token (revoked, or expired during a long session): refresh it once.
      onAuthFailed: async (rejected: Credential) => {
        if (rejected.type !== "oauth" || !rejected.refreshToken) return undefined;
        const store = rejected.source === "store" ? await openStore() : undefined;
        const fresh = await ensureFresh(rejected, {
          force: true,
          ...(store ? { store } : {}),
          ...(options.oauthProviders ? { providers: options.oauthProviders } : {}),
        });
        return fresh === rejected ? undefined : fresh;
      },
    });
    const info = findModel(modelId, providerId) ?? findModel(modelId);
    return {
      model,
      providerId,
      modelId,
      info,
      contextWindow: (typeof entry === "object" ? entry.context_window : undefined) ?? info?.contextWindow,
      costOf: (usage) => (info ? computeCost(info, usage) : 0),
      streamLimiter,
    };
  };
}

/**
 * Makes every model `resolve` returns wait on `limiter` (unless it already does), so subagents
 * whose models come from elsewhere still share the runtime's stream limit.
 */
export function limitResolvedModels(
  resolve: (spec: string) => Promise<ResolvedModel>,
  limiter: StreamLimiter,
): (spec: string) => Promise<ResolvedModel> {
  return async (spec) => {
    const resolved = await resolve(spec);
    if (resolved.streamLimiter === limiter) return resolved;
    return { ...resolved, model: withStreamLimit(resolved.model, limiter), streamLimiter: limiter };
  };
}
