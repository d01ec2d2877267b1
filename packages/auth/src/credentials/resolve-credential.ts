import { type Environment, findBuiltInProvider } from "@nyzhi/config";
import { accountToCredential, isCoolingDown, pickUsableAccount } from "../accounts/account-list.js";
import { MissingCredentialError } from "../errors/auth-errors.js";
import { type EnsureFreshOptions, ensureFresh } from "../oauth/ensure-fresh.js";
import type { CredentialStore } from "../store/credential-store.js";
import { type Credential, registerCredential } from "./credential.js";
import { envVarForProvider, readEnvApiKey } from "./env-var-for-provider.js";

export interface ResolveCredentialOptions {
  /** `--api-key` on the command line. */
  flag?: string | undefined;
  /** `provider.<id>.api_key` from the merged config. */
  configApiKey?: string | undefined;
  /** Default process.env. */
  env?: Environment;
  store?: CredentialStore;
  /** Epoch ms clock. Default Date.now. */
  now?: () => number;
  /**
   * Refresh a stored OAuth token that expires within 60 s (and persist it). Default true.
   * Endpoints come from `oauthProviders`.
   */
  refresh?: boolean;
  oauthProviders?: EnsureFreshOptions["providers"];
}

/**
 * Finds the credential for a provider, first match wins: flag, config `api_key`, environment
 * variable, then the stored active account that is not cooling down. Keys from the first three
 * sources, and stored API keys, are always `api-key` credentials; only stored OAuth tokens are `oauth`.
 */
export async function resolveCredential(
  providerId: string,
  options: ResolveCredentialOptions = {},
): Promise<Credential | undefined> {
  // Whatever is found is registered as a known secret, so no output shows it.
  return registerCredential(await findCredential(providerId, options));
}

async function findCredential(
  providerId: string,
  options: ResolveCredentialOptions,
): Promise<Credential | undefined> {
  if (options.flag) return { type: "api-key", providerId, key: options.flag, source: "flag" };
  if (options.configApiKey)
    return { type: "api-key", providerId, key: options.configApiKey, source: "config" };
  const fromEnv = readEnvApiKey(providerId, options.env ?? process.env);
  if (fromEnv)
    return { type: "api-key", providerId, key: fromEnv.key, source: "env", envVar: fromEnv.envVar };
  if (!options.store) return undefined;
  const now = options.now ?? Date.now;
  const account = pickUsableAccount(await options.store.listAccounts(providerId), now());
  if (!account) return undefined;
  const credential = accountToCredential(providerId, account);
  if (credential.type !== "oauth" || options.refresh === false) return credential;
  const freshOptions: EnsureFreshOptions = { store: options.store, now };
  if (options.oauthProviders) freshOptions.providers = options.oauthProviders;
  return ensureFresh(credential, freshOptions);
}

/** Like resolveCredential, but throws MissingCredentialError saying how to provide one. */
export async function requireCredential(
  providerId: string,
  options: ResolveCredentialOptions = {},
): Promise<Credential> {
  const credential = await resolveCredential(providerId, options);
  if (credential) return credential;
  const envVar = envVarForProvider(providerId);
  let message =
    `No credentials found for provider '${providerId}'. Set ${envVar}, run \`nyz login ${providerId}\`, ` +
    `or set provider.${providerId}.api_key in config.toml.`;
  const accounts = options.store ? await options.store.listAccounts(providerId) : [];
  const now = (options.now ?? Date.now)();
  if (accounts.length > 0 && accounts.every((account) => isCoolingDown(account, now))) {
    const soonest = Math.min(...accounts.map((account) => account.rateLimitedUntil ?? now));
    message =
      `All ${accounts.length} stored account(s) for '${findBuiltInProvider(providerId)?.name ?? providerId}' ` +
      `are rate limited for another ${Math.ceil((soonest - now) / 1000)} s. ` +
      `Wait, set ${envVar}, or add an account with \`nyz login ${providerId}\`.`;
  }
  throw new MissingCredentialError(providerId, envVar, message);
}
