import { NyzhiError } from "../base/errors.js";
import { editDistance } from "../schema/find-unknown-keys.js";
import { BUILT_IN_PROVIDERS, findBuiltInProvider } from "./built-in-providers.js";

/** The part of a config that names providers: `[provider.<id>]` tables (and `default`). */
export interface ProviderTableView {
  provider?: Readonly<Record<string, unknown>>;
}

/** Ids configured under `[provider.<id>]`, in config order. */
function configuredProviderIds(config: ProviderTableView | undefined): string[] {
  return Object.entries(config?.provider ?? {})
    .filter(([id, entry]) => id !== "default" && typeof entry === "object" && entry !== null)
    .map(([id]) => id);
}

/** Every provider id nyzhi can use: the built-in ones, then those configured under `[provider.<id>]`. */
export function knownProviderIds(config?: ProviderTableView): string[] {
  const builtIn = BUILT_IN_PROVIDERS.map((provider) => provider.id);
  return [...builtIn, ...configuredProviderIds(config).filter((id) => !builtIn.includes(id))];
}

/** Whether `id` is a built-in provider or has a `[provider.<id>]` table. */
export function isKnownProvider(id: string, config?: ProviderTableView): boolean {
  if (findBuiltInProvider(id)) return true;
  const entry = config?.provider?.[id];
  return id !== "default" && typeof entry === "object" && entry !== null;
}

/**
 * The known id nearest to `id` (a typo's likely intent), or undefined when none is close: at most
 * a third of the longer name's letters edited (at least one), as for unknown config keys.
 */
export function nearestProviderId(id: string, config?: ProviderTableView): string | undefined {
  const wanted = id.toLowerCase();
  let best: { id: string; distance: number } | undefined;
  for (const candidate of knownProviderIds(config)) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    if (distance <= limit && (!best || distance < best.distance)) best = { id: candidate, distance };
  }
  return best?.id;
}

/**
 * A provider id that is neither built in nor configured: a usage error (exit 2). The message
 * names where the id came from (`--provider`, `NYZHI_PROVIDER`, a config file, `--model`), the
 * nearest known id, and how to add a custom provider.
 */
export class UnknownProviderError extends NyzhiError {
  readonly providerId: string;
  readonly suggestion: string | undefined;

  constructor(
    providerId: string,
    options: {
      /** Flag, env var, file or key the id came from. */
      source?: string | undefined;
      config?: ProviderTableView | undefined;
      /** Replaces the id in the suggestion (`anthropic/claude-x` for a `--model` typo). */
      suggest?: (nearest: string) => string;
    } = {},
  ) {
    const nearest = nearestProviderId(providerId, options.config);
    const from = options.source ? ` (from ${options.source})` : "";
    const hint = nearest ? ` Did you mean '${(options.suggest ?? ((id) => id))(nearest)}'?` : "";
    super(
      "provider_unknown",
      `Unknown provider '${providerId}'${from}.${hint} Known providers: ${knownProviderIds(options.config).join(", ")}. ` +
        `A provider of your own needs a [provider.${providerId}] table with base_url (and api_style) in config.toml.`,
    );
    this.providerId = providerId;
    this.suggestion = nearest;
  }
}
