/**
 * A stored secret, typed so that an API key saved by `nyz login` comes back as an API key and
 * never as a Bearer token (the original stored both as one untyped token).
 */
export type StoredSecret =
  | { type: "api-key"; key: string }
  | {
      type: "oauth";
      accessToken: string;
      refreshToken?: string;
      /** Epoch ms; absent means the token does not expire. */
      expiresAt?: number;
    };

/** One account of a provider. A provider may hold several (multi-account rotation). */
export interface StoredAccount {
  /** Unique per provider; `default` when the user gave none. */
  label: string;
  secret: StoredSecret;
  /** The account the user chose; rotation falls back to others only while it cools down. */
  active: boolean;
  /** Epoch ms until which the account is rate limited; absent when it is usable. */
  rateLimitedUntil?: number;
}

/** Which backend holds the secrets. */
export type CredentialStoreKind = "keychain" | "file";

/**
 * Where accounts are kept. Implementations serialise their own writes; `update` is the one
 * read-modify-write primitive, so concurrent callers in one process never lose each other's changes.
 */
export interface CredentialStore {
  readonly kind: CredentialStoreKind;
  /** For messages: the file path, or the keychain service name. */
  readonly location: string;
  /** Accounts of one provider, in insertion order (rotation order). Empty when none. */
  listAccounts(providerId: string): Promise<StoredAccount[]>;
  /** Provider ids that have at least one account. */
  listProviders(): Promise<string[]>;
  /**
   * Replaces a provider's accounts with what `change` returns (an empty list removes the provider).
   * Returns the accounts written.
   */
  update(
    providerId: string,
    change: (accounts: StoredAccount[]) => StoredAccount[],
  ): Promise<StoredAccount[]>;
}
