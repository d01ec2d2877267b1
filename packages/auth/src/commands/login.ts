import {
  type Environment,
  errorMessage,
  findBuiltInProvider,
  getLogger,
  registerSecret,
} from "@nyzhi/config";
import { DEFAULT_ACCOUNT_LABEL, upsertAccount } from "../accounts/account-list.js";
import { runAuthorizationCodeFlow } from "../oauth/authorization-code-flow.js";
import { runDeviceCodeFlow } from "../oauth/device-code-flow.js";
import type { LoginIo } from "../oauth/login-io.js";
import {
  defaultOAuthProviders,
  type OAuthProvider,
  type OAuthProviderTable,
} from "../oauth/oauth-providers.js";
import type {
  CredentialStore,
  CredentialStoreKind,
  StoredAccount,
  StoredSecret,
} from "../store/credential-store.js";
import { openCredentialStore } from "../store/open-credential-store.js";

export interface LoginOptions {
  providerId: string;
  io: LoginIo;
  env?: Environment;
  /** Default: `openCredentialStore({ env })`. */
  store?: CredentialStore;
  /** `oauth` fails instead of falling back to a key; `api-key` skips OAuth. Default: OAuth when offered. */
  method?: "oauth" | "api-key";
  /** The API key to save, already given (`--api-key KEY`, or read from stdin): no OAuth, no prompt. */
  apiKey?: string;
  /** Account label; default replaces the active account (or `account-<n>` for multi-account providers). */
  label?: string;
  oauthProviders?: OAuthProviderTable;
  /** Cancels a browser or device login that waits (the app quit, `/login cancel`). */
  signal?: AbortSignal;
  /** Passed to the device flow (tests). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type LoginResult =
  | {
      status: "saved";
      providerId: string;
      label: string;
      type: StoredSecret["type"];
      storeKind: CredentialStoreKind;
    }
  | { status: "cancelled"; providerId: string; reason: "no-key" };

function providerName(providerId: string): string {
  return findBuiltInProvider(providerId)?.name ?? providerId;
}

/** The label a login without `--label` saves to (spec §2.4 `store_token` / Gemini's `account-<n>`). */
function defaultLabel(accounts: readonly StoredAccount[], multiAccount: boolean): string {
  if (accounts.length === 0) return DEFAULT_ACCOUNT_LABEL;
  if (multiAccount) return `account-${accounts.length + 1}`;
  return (accounts.find((account) => account.active) ?? accounts[0])?.label ?? DEFAULT_ACCOUNT_LABEL;
}

async function runOAuth(provider: OAuthProvider, options: LoginOptions): Promise<StoredSecret> {
  const flowOptions = {
    io: options.io,
    ...(options.now ? { now: options.now } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const tokens =
    provider.flow === "device-code"
      ? await runDeviceCodeFlow(provider, {
          ...flowOptions,
          ...(options.sleep ? { sleep: options.sleep } : {}),
        })
      : await runAuthorizationCodeFlow(provider, flowOptions);
  return { type: "oauth", ...tokens };
}

/**
 * `nyz login <provider>`: the provider's OAuth flow when it has one (falling back to an API key
 * prompt if it fails, unless `method` is `oauth`), else an API key prompt. The secret is saved as
 * what it is — an API key stays an API key — and never printed.
 */
export async function login(options: LoginOptions): Promise<LoginResult> {
  const { providerId, io } = options;
  const env = options.env ?? process.env;
  const store = options.store ?? (await openCredentialStore({ env })).store;
  const oauthProvider = (options.oauthProviders ?? defaultOAuthProviders(env))[providerId];
  let secret: StoredSecret | undefined;
  if (oauthProvider && options.method !== "api-key" && options.apiKey === undefined) {
    try {
      secret = await runOAuth(oauthProvider, options);
    } catch (error) {
      if (options.method === "oauth") throw error;
      io.print(`OAuth login failed: ${errorMessage(error)}`);
      getLogger().warn(
        { providerId, error: errorMessage(error) },
        "OAuth login failed; asking for an API key",
      );
    }
  }
  if (!secret) {
    const key = (
      options.apiKey ?? (await io.prompt(`API key for ${providerName(providerId)}:`, { secret: true }))
    ).trim();
    if (!key) {
      io.print("No key entered.");
      return { status: "cancelled", providerId, reason: "no-key" };
    }
    secret = { type: "api-key", key };
  }
  const saved = secret;
  // Hidden from every later line this process prints or logs.
  if (saved.type === "api-key") registerSecret(saved.key);
  else {
    registerSecret(saved.accessToken);
    registerSecret(saved.refreshToken);
  }
  let label = options.label ?? "";
  await store.update(providerId, (accounts) => {
    label ||= defaultLabel(accounts, oauthProvider?.multiAccount === true && saved.type === "oauth");
    return upsertAccount(accounts, label, saved);
  });
  const kind = saved.type === "oauth" ? "Logged in to" : "API key saved for";
  io.print(`${kind} ${providerName(providerId)} (account ${label}, ${store.location}).`);
  return { status: "saved", providerId, label, type: saved.type, storeKind: store.kind };
}
