import {
  type CredentialStore,
  candidateProviders,
  envVarForProvider,
  findProvidersWithCredentials,
  openCredentialStore,
} from "@nyzhi/auth";
import {
  type Environment,
  findBuiltInProvider,
  isKnownProvider,
  type LoadedConfig,
  NyzhiError,
} from "@nyzhi/config";

export interface ChosenProvider {
  providerId: string;
  /** Every provider whose credentials were found, in preference order (the chosen one first). */
  found: string[];
}

export interface ChooseDefaultProviderOptions {
  env: Environment;
  /** Where the one-line note goes when several providers have credentials. */
  note: (message: string) => void;
  /** `--model`: a `provider/model` there names the lead's provider, so finding none is not fatal here. */
  modelSpec?: string | undefined;
  /** Default: `openCredentialStore({ env })`, opened only when no environment or config key is found. */
  openStore?: () => Promise<CredentialStore>;
}

/** How to add a key, for the providers a run may pick (built-in first five, by preference). */
function howToAddKey(loaded: LoadedConfig): string {
  const examples = candidateProviders(loaded.config)
    .filter((id) => findBuiltInProvider(id))
    .slice(0, 5)
    .map((id) => `${envVarForProvider(id)} (${id})`);
  return (
    `Set a key in the environment — ${examples.join(", ")}, … — or store one with \`nyz login <provider>\` ` +
    "(`nyz login anthropic --api-key -` reads it from stdin); `nyz auth status` lists every provider's variable."
  );
}

/**
 * Picks the provider when no layer sets `provider.default` (no config file, no `NYZHI_PROVIDER`,
 * no `-p`): the one whose credentials are present, by `PROVIDER_PREFERENCE` when several are (with
 * a one-line note on stderr saying how to choose). Sets `loaded.config.provider.default` and
 * returns the choice; returns undefined when the provider was configured. With no credentials at
 * all, throws a `auth_missing` error listing how to add a key, unless `--model` names a provider.
 */
export async function chooseDefaultProvider(
  loaded: LoadedConfig,
  options: ChooseDefaultProviderOptions,
): Promise<ChosenProvider | undefined> {
  const origin = loaded.origins["provider.default"];
  if (origin && origin.layer !== "default") return undefined;
  const { providerIds } = await findProvidersWithCredentials({
    env: options.env,
    config: loaded.config,
    openStore: options.openStore ?? (async () => (await openCredentialStore({ env: options.env })).store),
  });
  const [providerId] = providerIds;
  if (!providerId) {
    const slash = options.modelSpec?.indexOf("/") ?? -1;
    const named = slash > 0 && isKnownProvider(options.modelSpec?.slice(0, slash) ?? "", loaded.config);
    if (named) return undefined;
    throw new NyzhiError(
      "auth_missing",
      `No provider is configured and no credentials were found. ${howToAddKey(loaded)}`,
    );
  }
  loaded.config.provider.default = providerId;
  if (providerIds.length > 1) {
    options.note(
      `Using ${providerId} (credentials found for ${providerIds.join(", ")}); choose with -p or \`nyz config set provider.default …\``,
    );
  }
  return { providerId, found: providerIds };
}
