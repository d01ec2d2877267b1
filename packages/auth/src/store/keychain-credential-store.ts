import { join } from "node:path";
import type { AsyncEntry, EntryOptions } from "@napi-rs/keyring";
import { getLogger, resolveDirs, withFileLock } from "@nyzhi/config";
import { KeychainUnavailableError } from "../errors/auth-errors.js";
import type { CredentialStore, StoredAccount, StoredSecret } from "./credential-store.js";
import { createSerialQueue } from "./serial-queue.js";

/** Keychain service every entry is filed under. */
export const DEFAULT_KEYCHAIN_SERVICE = "nyzhi";

/** Account name of the entry that lists accounts (labels, active flag, cooldown; no secrets). */
const INDEX_ACCOUNT = "__index__";

let keyringModule: Promise<typeof import("@napi-rs/keyring")> | undefined;

/**
 * The native keyring addon is loaded on the first keychain call, not when `@nyzhi/auth` is
 * imported: a run whose key comes from the environment never touches it. A platform without a
 * build of the addon fails that call, which counts as an unavailable keychain.
 */
async function keychainEntry(service: string, account: string): Promise<AsyncEntry> {
  keyringModule ??= import("@napi-rs/keyring");
  const { AsyncEntry } = await keyringModule;
  return new AsyncEntry(service, account, ENTRY_OPTIONS);
}

/** On Linux, require the Secret Service: the kernel keyring fallback does not survive a logout. */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: "secret-service" } };

export interface KeychainStoreOptions {
  /** Default `nyzhi`; tests use a unique service so they never touch real entries. */
  service?: string;
  /** How long one keychain call may take before it counts as unavailable, in ms. Default 5000. */
  timeoutMs?: number;
  /**
   * Lock file that serialises updates across nyzhi processes (the account index is one entry
   * that every update rewrites). Default `<data dir>/keychain-<service>.lock`.
   */
  lockPath?: string;
}

type IndexEntry = Omit<StoredAccount, "secret">;
type KeychainIndex = Record<string, IndexEntry[]>;

async function withTimeout<T>(
  operation: string,
  timeoutMs: number,
  run: (signal: AbortSignal) => Promise<T>,
) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new KeychainUnavailableError(`${operation} did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
  });
  try {
    // Promise.resolve().then: a constructor that throws synchronously becomes a rejection too.
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), timeout]);
  } catch (error) {
    if (error instanceof KeychainUnavailableError) throw error;
    // Keyring errors describe the platform failure; they never contain the secret.
    throw new KeychainUnavailableError(`${operation} failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks that the OS keychain answers, reading one entry that need not exist.
 * Resolves when it does, rejects with KeychainUnavailableError otherwise (no D-Bus session,
 * no Secret Service, locked and prompting, or slower than `timeoutMs`).
 */
export async function probeKeychain(options: KeychainStoreOptions = {}): Promise<void> {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  await withTimeout("keychain probe", options.timeoutMs ?? 1500, async (signal) =>
    (await keychainEntry(service, "__probe__")).getPassword(signal),
  );
}

/**
 * Secrets in the OS keychain through `@napi-rs/keyring`: one entry per account
 * (service `nyzhi`, account `<provider>:<label>`, password = the JSON secret), plus an
 * `__index__` entry holding the account list without secrets, so accounts can be listed in order.
 */
export function createKeychainCredentialStore(options: KeychainStoreOptions = {}): CredentialStore {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  const timeoutMs = options.timeoutMs ?? 5000;
  const serial = createSerialQueue();
  const lockPath = options.lockPath ?? join(resolveDirs().data, `keychain-${service}.lock`);
  const entry = (account: string) => keychainEntry(service, account);
  const accountName = (providerId: string, label: string) => `${providerId}:${label}`;

  const readIndex = async (): Promise<KeychainIndex> => {
    const text = await withTimeout("keychain read", timeoutMs, async (signal) =>
      (await entry(INDEX_ACCOUNT)).getPassword(signal),
    );
    if (!text) return {};
    try {
      return JSON.parse(text) as KeychainIndex;
    } catch {
      throw new KeychainUnavailableError(
        `the index entry (service ${service}, account ${INDEX_ACCOUNT}) is not valid JSON; delete it and log in again`,
      );
    }
  };

  const writeIndex = async (index: KeychainIndex) => {
    const text = JSON.stringify(index);
    await withTimeout("keychain write", timeoutMs, async (signal) =>
      (await entry(INDEX_ACCOUNT)).setPassword(text, signal),
    );
  };

  const readAccounts = async (providerId: string, index: KeychainIndex): Promise<StoredAccount[]> => {
    const accounts: StoredAccount[] = [];
    for (const item of index[providerId] ?? []) {
      const text = await withTimeout("keychain read", timeoutMs, async (signal) =>
        (await entry(accountName(providerId, item.label))).getPassword(signal),
      );
      if (!text) {
        getLogger().warn({ providerId, label: item.label }, "keychain entry listed in the index is missing");
        continue;
      }
      let secret: StoredSecret;
      try {
        secret = JSON.parse(text) as StoredSecret;
      } catch {
        // The parser's message could quote the secret, so it is not passed on.
        throw new KeychainUnavailableError(
          `the entry ${accountName(providerId, item.label)} (service ${service}) is not valid JSON; run \`nyz logout ${providerId}\` and log in again`,
        );
      }
      accounts.push({ ...item, secret });
    }
    return accounts;
  };

  return {
    kind: "keychain",
    location: `OS keychain (service ${service})`,
    async listAccounts(providerId) {
      return readAccounts(providerId, await readIndex());
    },
    async listProviders() {
      const index = await readIndex();
      return Object.keys(index).filter((id) => (index[id] ?? []).length > 0);
    },
    update(providerId, change) {
      // One update at a time in this process (serial) and across processes (the lock): two
      // logins at once each rewrite the index, and the second must see the first's account.
      return serial(async () => {
        return withFileLock(lockPath, async () => {
          const index = await readIndex();
          const before = await readAccounts(providerId, index);
          const next = change(structuredClone(before));
          const previous = new Map(before.map((account) => [account.label, JSON.stringify(account.secret)]));
          for (const account of next) {
            const text = JSON.stringify(account.secret);
            // Only changed secrets are written, so an update to one account (a cooldown) never
            // writes another account's older token back over a newer one.
            if (previous.get(account.label) === text) continue;
            await withTimeout("keychain write", timeoutMs, async (signal) =>
              (await entry(accountName(providerId, account.label))).setPassword(text, signal),
            );
          }
          const kept = new Set(next.map((account) => account.label));
          for (const account of before) {
            if (kept.has(account.label)) continue;
            await withTimeout("keychain delete", timeoutMs, async (signal) =>
              (await entry(accountName(providerId, account.label))).deleteCredential(signal),
            );
          }
          if (next.length === 0) delete index[providerId];
          else index[providerId] = next.map(({ secret: _secret, ...item }) => item);
          await writeIndex(index);
          return next;
        });
      });
    },
  };
}
