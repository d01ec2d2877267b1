import { type Environment, getLogger, resolveDirs } from "@nyzhi/config";
import type { CredentialStore, CredentialStoreKind } from "./credential-store.js";
import { createFileCredentialStore } from "./file-credential-store.js";
import {
  createKeychainCredentialStore,
  type KeychainStoreOptions,
  probeKeychain,
} from "./keychain-credential-store.js";

export interface OpenCredentialStoreOptions {
  env?: Environment;
  /**
   * `file` skips the keychain. `keychain` (and the default) uses it when it answers the probe,
   * else falls back to the file. `NYZHI_CREDENTIAL_STORE=file|keychain` sets this when omitted.
   */
  prefer?: CredentialStoreKind;
  keychain?: KeychainStoreOptions;
}

export interface OpenedCredentialStore {
  store: CredentialStore;
  kind: CredentialStoreKind;
  /** Why the file store was chosen when the keychain was wanted; absent otherwise. */
  fallbackReason?: string;
}

/** Picks the credential store: the OS keychain when it answers, else `auth.json` in the data dir. */
export async function openCredentialStore(
  options: OpenCredentialStoreOptions = {},
): Promise<OpenedCredentialStore> {
  const env = options.env ?? process.env;
  const fromEnv = env.NYZHI_CREDENTIAL_STORE;
  const prefer = options.prefer ?? (fromEnv === "file" || fromEnv === "keychain" ? fromEnv : "keychain");
  const fileStore = () => createFileCredentialStore(resolveDirs(env).auth);
  if (prefer === "file") return { store: fileStore(), kind: "file" };
  try {
    await probeKeychain(options.keychain);
    return { store: createKeychainCredentialStore(options.keychain), kind: "keychain" };
  } catch (error) {
    const reason = (error as Error).message;
    getLogger().info({ reason }, "OS keychain unavailable; using auth.json");
    return { store: fileStore(), kind: "file", fallbackReason: reason };
  }
}
