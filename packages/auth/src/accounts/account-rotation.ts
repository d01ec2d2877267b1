import { getLogger } from "@nyzhi/config";
import type { Credential } from "../credentials/credential.js";
import { ensureFresh } from "../oauth/ensure-fresh.js";
import type { CredentialStore } from "../store/credential-store.js";
import { accountToCredential, pickUsableAccount } from "./account-list.js";

/** Cooldown of a rate-limited account when the response had no Retry-After, in ms. */
export const DEFAULT_RATE_LIMIT_COOLDOWN_MS = 60_000;

/**
 * What the provider layer's retry wrapper calls on a 429: it gets the credential that was
 * rate limited and the Retry-After in ms (if any), and resolves the credential to retry with,
 * or undefined when no other account is usable (then it backs off as usual).
 */
export type OnRateLimited = (
  credential: Credential,
  retryAfterMs?: number,
) => Promise<Credential | undefined>;

export interface AccountRotationOptions {
  store: CredentialStore;
  /** Epoch ms; injected so tests can move time. Default Date.now. */
  now?: () => number;
  defaultCooldownMs?: number;
  /** Applied to the credential picked. Default: `ensureFresh` (refreshes an expiring OAuth token and saves it). */
  prepare?: (credential: Credential) => Promise<Credential>;
}

/**
 * Several accounts per provider with rate-limit rotation. The cooldown is stored with the
 * account, so other nyzhi processes using the same store skip it too. The active account is the
 * user's choice and comes back as soon as its cooldown ends.
 */
export class AccountRotation {
  readonly #store: CredentialStore;
  readonly #now: () => number;
  readonly #defaultCooldownMs: number;
  readonly #prepare: (credential: Credential) => Promise<Credential>;

  constructor(options: AccountRotationOptions) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
    this.#defaultCooldownMs = options.defaultCooldownMs ?? DEFAULT_RATE_LIMIT_COOLDOWN_MS;
    this.#prepare =
      options.prepare ?? ((credential) => ensureFresh(credential, { store: this.#store, now: this.#now }));
  }

  /** The credential to use now for a provider, or undefined if none is stored or all cool down. */
  async current(providerId: string): Promise<Credential | undefined> {
    const account = pickUsableAccount(await this.#store.listAccounts(providerId), this.#now());
    return account ? this.#prepare(accountToCredential(providerId, account)) : undefined;
  }

  /**
   * Puts `accountLabel` in cooldown for `retryAfterMs` (default 60 s) and returns the next
   * usable credential of the provider, or undefined when every account cools down.
   */
  async reportRateLimited(
    providerId: string,
    accountLabel: string,
    retryAfterMs?: number,
  ): Promise<Credential | undefined> {
    const cooldownMs =
      retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : this.#defaultCooldownMs;
    const until = this.#now() + cooldownMs;
    const accounts = await this.#store.update(providerId, (list) =>
      list.map((account) =>
        account.label === accountLabel ? { ...account, rateLimitedUntil: until } : account,
      ),
    );
    getLogger().info({ providerId, account: accountLabel, cooldownMs }, "account rate limited");
    const next = pickUsableAccount(accounts, this.#now());
    return next ? this.#prepare(accountToCredential(providerId, next)) : undefined;
  }

  /**
   * The `OnRateLimited` hook for the provider layer. Credentials that did not come from the store
   * (flag, config, env) have no sibling accounts, so it resolves undefined for them.
   */
  readonly onRateLimited: OnRateLimited = async (credential, retryAfterMs) => {
    if (credential.source !== "store" || credential.account === undefined) return undefined;
    return this.reportRateLimited(credential.providerId, credential.account, retryAfterMs);
  };
}
