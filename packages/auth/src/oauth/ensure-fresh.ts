import { join } from "node:path";
import { getLogger, resolveDirs, withFileLock } from "@nyzhi/config";
import { type Credential, registerCredential } from "../credentials/credential.js";
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
  /** Where the cross-process refresh lock lives. Default: the data directory. */
  lockDir?: string;
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
  const label = credential.account;
  const store = options.store;
  const refresh = async (): Promise<Credential> => {
    if (store && label !== undefined) {
      // Another nyzhi process may have refreshed while we waited for the lock: a rotated refresh
      // token works once, so use what it saved instead of refreshing again.
      const saved = (await store.listAccounts(credential.providerId)).find(
        (account) => account.label === label,
      );
      if (saved?.secret.type === "oauth" && saved.secret.accessToken !== credential.accessToken) {
        const fromStore: Credential = { ...credential, ...saved.secret, type: "oauth" };
        if (saved.secret.expiresAt === undefined) delete fromStore.expiresAt;
        if (!needsRefresh(fromStore, now())) return fromStore;
      }
    }
    const tokens = await refreshOAuthTokens(provider, refreshToken, now);
    const fresh: Credential = { ...credential, accessToken: tokens.accessToken };
    if (tokens.refreshToken !== undefined) fresh.refreshToken = tokens.refreshToken;
    if (tokens.expiresAt !== undefined) fresh.expiresAt = tokens.expiresAt;
    else delete fresh.expiresAt;
    if (store && label !== undefined) {
      await store.update(credential.providerId, (accounts) =>
        accounts.map((account) =>
          account.label === label ? { ...account, secret: { type: "oauth", ...tokens } } : account,
        ),
      );
    }
    getLogger().info({ providerId: credential.providerId, account: label }, "refreshed OAuth token");
    return fresh;
  };
  // One refresh per account at a time: in this process (inFlight) and across processes (a lock
  // file beside the other data), when the token is saved to a store.
  const locked = async (): Promise<Credential> => {
    if (!store || label === undefined) return refresh();
    const directory = options.lockDir ?? resolveDirs().data;
    const name = `oauth-refresh-${credential.providerId}-${label}`.replace(/[^A-Za-z0-9_.-]/g, "_");
    return withFileLock(join(directory, `${name}.lock`), refresh);
  };
  const running = locked().then(registerCredential);
  inFlight.set(key, running);
  try {
    return await running;
  } finally {
    inFlight.delete(key);
  }
}
