import { type Credential, registerCredential } from "../credentials/credential.js";
import type { StoredAccount, StoredSecret } from "../store/credential-store.js";

/** Label of an account saved without one. */
export const DEFAULT_ACCOUNT_LABEL = "default";

/** Whether the account is in a rate-limit cooldown at `now` (epoch ms). */
export function isCoolingDown(account: StoredAccount, now: number): boolean {
  return account.rateLimitedUntil !== undefined && now < account.rateLimitedUntil;
}

/**
 * The account to use now: the active one unless it cools down, else the first that does not,
 * in stored order. Undefined when there is none or all cool down.
 */
export function pickUsableAccount(
  accounts: readonly StoredAccount[],
  now: number,
): StoredAccount | undefined {
  const active = accounts.find((account) => account.active);
  if (active && !isCoolingDown(active, now)) return active;
  return accounts.find((account) => !isCoolingDown(account, now));
}

/**
 * Adds or replaces an account by label. A new account is active when it is the first one or
 * when `activate` is set (then the others are deactivated); a replaced one keeps its place and
 * flags, and its cooldown is cleared because the secret is new.
 */
export function upsertAccount(
  accounts: StoredAccount[],
  label: string,
  secret: StoredSecret,
  options: { activate?: boolean } = {},
): StoredAccount[] {
  const activate = options.activate === true || accounts.length === 0;
  const existing = accounts.find((account) => account.label === label);
  const next = existing
    ? accounts.map((account) =>
        account.label === label ? { label, secret, active: account.active || activate } : account,
      )
    : [...accounts, { label, secret, active: activate }];
  return activate ? next.map((account) => ({ ...account, active: account.label === label })) : next;
}

/** Removes an account by label; when none is active afterwards, the first becomes active. */
export function removeAccountByLabel(accounts: StoredAccount[], label: string): StoredAccount[] {
  const next = accounts.filter((account) => account.label !== label);
  const first = next[0];
  if (first && !next.some((account) => account.active)) first.active = true;
  return next;
}

/** A stored account as the credential the provider layer sends; the secret keeps its type. */
export function accountToCredential(providerId: string, account: StoredAccount): Credential {
  const { secret } = account;
  if (secret.type === "api-key") {
    return registerCredential({
      type: "api-key",
      providerId,
      key: secret.key,
      source: "store",
      account: account.label,
    });
  }
  const credential: Credential = {
    type: "oauth",
    providerId,
    accessToken: secret.accessToken,
    source: "store",
    account: account.label,
  };
  if (secret.refreshToken !== undefined) credential.refreshToken = secret.refreshToken;
  if (secret.expiresAt !== undefined) credential.expiresAt = secret.expiresAt;
  return registerCredential(credential);
}

/** The stored form of a credential (drops source and account). */
export function credentialToSecret(credential: Credential): StoredSecret {
  if (credential.type === "api-key") return { type: "api-key", key: credential.key };
  const secret: StoredSecret = { type: "oauth", accessToken: credential.accessToken };
  if (credential.refreshToken !== undefined) secret.refreshToken = credential.refreshToken;
  if (credential.expiresAt !== undefined) secret.expiresAt = credential.expiresAt;
  return secret;
}
