import { getLogger } from "@nyzhi/config";
import type { Credential } from "../credentials/credential.js";
import type { CredentialStore } from "../store/credential-store.js";
import { defaultOAuthProviders, type OAuthProviderTable } from "./oauth-providers.js";
import { refreshOAuthTokens } from "./token-requests.js";

/** Refresh this long before expiry, in ms (spec §2.6: `now >= expires_at - 60`). */
export const REFRESH_SKEW_MS = 60_000;

export interface EnsureFreshOptions {
  /** Where the refreshed token is saved (the account named by `credential.account`). */
  store?: CredentialStore;
  providers?: OAuthProviderTable;
  now?: () => number;
  /** Refresh even if the token does not look expired (the server just rejected it). */
  force?: boolean;
}

/** Whether an OAuth credential expires within REFRESH_SKEW_MS at `now`. */
export function needsRefresh(credential: Credential, now: number): boolean {
  return (
    credential.type === "oauth" &&
    credential.expiresAt !== undefined &&
    now >= credential.expiresAt - REFRESH_SKEW_MS
  );
}

/** Refreshes in flight, keyed by provider and account, so parallel requests refresh once. */
const inFlight = new Map<string, Promise<Credential>>();

/**
 * Returns the credential, refreshed first when it is an OAuth token expiring within 60 s (or
 * with `force`) and has a refresh token; the new token is persisted to `store`. API keys and tokens without an
 * expiry come back unchanged. A failed refresh throws an OAuthError (`auth_refresh_failed`).
 */
export async function ensureFresh(
  credential: Credential,
  options: EnsureFreshOptions = {},
): Promise<Credential> {
  const now = options.now ?? Date.now;
  if (credential.type !== "oauth" || !credential.refreshToken) return credential;
  if (!options.force && !needsRefresh(credential, now())) return credential;
  const provider = (options.providers ?? defaultOAuthProviders())[credential.providerId];
  if (!provider) {
    getLogger().warn(
      { providerId: credential.providerId },
      "expiring token but no refresh endpoint is known",
    );
    return credential;
  }
  const key = `${credential.providerId}:${credential.account ?? ""}`;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const refreshToken = credential.refreshToken;
  const refresh = (async (): Promise<Credential> => {
    const tokens = await refreshOAuthTokens(provider, refreshToken, now);
    const fresh: Credential = { ...credential, accessToken: tokens.accessToken };
    if (tokens.refreshToken !== undefined) fresh.refreshToken = tokens.refreshToken;
    if (tokens.expiresAt !== undefined) fresh.expiresAt = tokens.expiresAt;
    else delete fresh.expiresAt;
    const label = credential.account;
    if (options.store && label !== undefined) {
      await options.store.update(credential.providerId, (accounts) =>
        accounts.map((account) =>
          account.label === label ? { ...account, secret: { type: "oauth", ...tokens } } : account,
        ),
      );
    }
    getLogger().info({ providerId: credential.providerId, account: label }, "refreshed OAuth token");
    return fresh;
  })();
  inFlight.set(key, refresh);
  try {
    return await refresh;
  } finally {
    inFlight.delete(key);
  }
}
