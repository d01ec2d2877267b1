import { BUILT_IN_PROVIDERS, type Environment } from "@nyzhi/config";
import { isCoolingDown } from "../accounts/account-list.js";
import { readEnvApiKey } from "../credentials/env-var-for-provider.js";
import { maskSecret } from "../credentials/mask-secret.js";
import type { CredentialStore, StoredSecret } from "../store/credential-store.js";

/**
 * The part of the merged config auth status reads: `provider.<id>.api_key`. Loose on purpose so
 * `NyzhiConfig` (whose `provider` table also holds `default: string`) can be passed as is.
 */
export interface AuthStatusConfig {
  provider?: Readonly<Record<string, unknown>>;
}

function configApiKey(config: AuthStatusConfig | undefined, providerId: string): string | undefined {
  const entry = config?.provider?.[providerId];
  if (typeof entry !== "object" || entry === null) return undefined;
  const key = (entry as { api_key?: unknown }).api_key;
  return typeof key === "string" && key ? key : undefined;
}

export interface AuthStatusAccount {
  label: string;
  active: boolean;
  rateLimited: boolean;
  /** `api-key` or `oauth`. */
  type: StoredSecret["type"];
  /** The secret masked for display (`sk-…abcd`); the secret itself is never in a row. */
  masked: string;
}

export interface AuthStatusRow {
  id: string;
  name: string;
  /**
   * Where the credential in use comes from, in resolution order: config `api_key`, then the
   * environment, then stored accounts. Unlike the original, a config key counts.
   */
  status: "config" | "env" | "connected" | "not connected";
  /** The env var, when status is `env`. */
  envVar?: string;
  /** Masked key when status is `config` or `env`. */
  masked?: string;
  accounts: AuthStatusAccount[];
}

export interface AuthStatusOptions {
  env?: Environment;
  config?: AuthStatusConfig;
  store?: CredentialStore;
  now?: () => number;
}

function secretOf(secret: StoredSecret): string {
  return secret.type === "api-key" ? secret.key : secret.accessToken;
}

/** One row per built-in provider, in the login menu's order. */
export async function authStatus(options: AuthStatusOptions = {}): Promise<AuthStatusRow[]> {
  const env = options.env ?? process.env;
  const now = (options.now ?? Date.now)();
  const rows: AuthStatusRow[] = [];
  for (const provider of BUILT_IN_PROVIDERS) {
    const stored = options.store ? await options.store.listAccounts(provider.id) : [];
    const accounts = stored.map((account) => ({
      label: account.label,
      active: account.active,
      rateLimited: isCoolingDown(account, now),
      type: account.secret.type,
      masked: maskSecret(secretOf(account.secret)),
    }));
    const row: AuthStatusRow = { id: provider.id, name: provider.name, status: "not connected", accounts };
    const configKey = configApiKey(options.config, provider.id);
    const fromEnv = readEnvApiKey(provider.id, env);
    if (configKey) {
      row.status = "config";
      row.masked = maskSecret(configKey);
    } else if (fromEnv) {
      row.status = "env";
      row.envVar = fromEnv.envVar;
      row.masked = maskSecret(fromEnv.key);
    } else if (accounts.length > 0) {
      row.status = "connected";
    }
    rows.push(row);
  }
  return rows;
}

/**
 * Renders rows for `nyz auth status`: one line per provider, its accounts indented below it
 * (`*` marks the active one). Shows masked values only.
 */
export function formatAuthStatus(rows: readonly AuthStatusRow[]): string {
  const width = Math.max(...rows.map((row) => row.name.length), 0) + 2;
  const lines: string[] = [];
  for (const row of rows) {
    let detail: string = row.status;
    if (row.status === "env") detail = `env (${row.envVar} ${row.masked})`;
    if (row.status === "config") detail = `config (api_key ${row.masked})`;
    lines.push(`${row.name.padEnd(width)}${detail}`);
    const labelWidth = Math.max(...row.accounts.map((account) => account.label.length), 0) + 2;
    for (const account of row.accounts) {
      const flags = [account.type, account.rateLimited ? "rate limited" : ""].filter(Boolean).join(", ");
      lines.push(
        `  ${account.active ? "*" : " "} ${account.label.padEnd(labelWidth)}${account.masked}  (${flags})`,
      );
    }
  }
  return lines.join("\n");
}
