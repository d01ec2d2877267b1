import { BUILT_IN_PROVIDERS, type Environment } from "@nyzhi/config";
import type { CredentialStore } from "../store/credential-store.js";
import { readEnvApiKey } from "./env-var-for-provider.js";

/**
 * Which provider a run without `provider.default` uses when credentials for several are present:
 * the first of these, then the other built-in providers in the login menu's order, then providers
 * of your own (`[provider.<id>]`). The agent-CLI providers (`claude-sdk`, `codex`) are never
 * picked this way: `claude-sdk` shares `ANTHROPIC_API_KEY` with `anthropic`.
 */
export const PROVIDER_PREFERENCE: readonly string[] = ["anthropic", "openai", "gemini", "openrouter"];

/** The part of the merged config this reads: `provider.<id>.api_key` and the configured ids. */
export interface ProviderCredentialConfig {
  provider?: Readonly<Record<string, unknown>>;
}

export interface FindProvidersWithCredentialsOptions {
  env: Environment;
  config?: ProviderCredentialConfig;
  /**
   * Opens the credential store (`nyz login`); called only when neither the environment nor the
   * config holds a key, so a run with a key in the environment never waits on the keychain.
   */
  openStore?: () => Promise<CredentialStore>;
}

export interface ProvidersWithCredentials {
  /** Provider ids with a credential, in `PROVIDER_PREFERENCE` order; empty when none. */
  providerIds: string[];
  /** Where they were found: the environment or config, else the credential store. */
  source: "env-or-config" | "store" | "none";
}

function configuredEntries(config: ProviderCredentialConfig | undefined): Array<[string, unknown]> {
  return Object.entries(config?.provider ?? {}).filter(
    ([id, entry]) => id !== "default" && typeof entry === "object" && entry !== null,
  );
}

/** Every provider id a run may pick, in preference order. */
export function candidateProviders(config?: ProviderCredentialConfig): string[] {
  const builtIn = BUILT_IN_PROVIDERS.filter((provider) => provider.category !== "agents").map(
    (provider) => provider.id,
  );
  const ordered = [...PROVIDER_PREFERENCE, ...builtIn, ...configuredEntries(config).map(([id]) => id)];
  return [...new Set(ordered)];
}

function hasConfigKey(config: ProviderCredentialConfig | undefined, providerId: string): boolean {
  const entry = config?.provider?.[providerId];
  if (typeof entry !== "object" || entry === null) return false;
  const key = (entry as { api_key?: unknown }).api_key;
  return typeof key === "string" && key !== "";
}

/**
 * The providers whose credentials are present, for choosing one when nothing names it. Keys in
 * the config (`provider.<id>.api_key`) and the environment count first; the credential store is
 * read only when there are none, so an environment key decides without opening the keychain.
 */
export async function findProvidersWithCredentials(
  options: FindProvidersWithCredentialsOptions,
): Promise<ProvidersWithCredentials> {
  const candidates = candidateProviders(options.config);
  const direct = candidates.filter(
    (id) => hasConfigKey(options.config, id) || readEnvApiKey(id, options.env) !== undefined,
  );
  if (direct.length > 0) return { providerIds: direct, source: "env-or-config" };
  if (!options.openStore) return { providerIds: [], source: "none" };
  const stored = new Set(await (await options.openStore()).listProviders());
  const fromStore = candidates.filter((id) => stored.has(id));
  return fromStore.length > 0
    ? { providerIds: fromStore, source: "store" }
    : { providerIds: [], source: "none" };
}
