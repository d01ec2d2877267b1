import type { Environment } from "@nyzhi/config";
import { removeAccountByLabel } from "../accounts/account-list.js";
import type { CredentialStore } from "../store/credential-store.js";
import { openCredentialStore } from "../store/open-credential-store.js";

export interface LogoutOptions {
  providerId: string;
  /** Remove only this account; default removes every account of the provider. */
  account?: string;
  env?: Environment;
  store?: CredentialStore;
}

export interface LogoutResult {
  providerId: string;
  /** Labels of the accounts removed; empty when there was nothing to remove (not an error). */
  removed: string[];
}

/** `nyz logout <provider> [--account <label>]`. Removing the active account activates the first left. */
export async function logout(options: LogoutOptions): Promise<LogoutResult> {
  const store = options.store ?? (await openCredentialStore({ env: options.env ?? process.env })).store;
  let removed: string[] = [];
  await store.update(options.providerId, (accounts) => {
    if (options.account === undefined) {
      removed = accounts.map((account) => account.label);
      return [];
    }
    const label = options.account;
    removed = accounts.some((account) => account.label === label) ? [label] : [];
    return removeAccountByLabel(accounts, label);
  });
  return { providerId: options.providerId, removed };
}
