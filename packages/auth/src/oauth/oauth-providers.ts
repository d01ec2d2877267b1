import type { Environment } from "@nyzhi/config";

/** A browser login with PKCE (S256) and a loopback redirect (RFC 8252). */
export interface AuthorizationCodeProvider {
  flow: "authorization-code";
  providerId: string;
  clientId: string;
  /** Only Google's installed-app client needs one; it is not secret in the OAuth sense. */
  clientSecret?: string;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  extraAuthorizeParams?: Readonly<Record<string, string>>;
  /** Host written into `redirect_uri`; the callback server always listens on 127.0.0.1. */
  redirectHost: "localhost" | "127.0.0.1";
  callbackPath: string;
  /** Callback port; 0 picks a free one. */
  port: number;
  /** How long to wait for the browser to come back, in ms. */
  timeoutMs: number;
  /** Later logins add an account (`account-2`, …) instead of replacing the active one. */
  multiAccount: boolean;
}

/** GitHub's device flow, then the Copilot token exchange. */
export interface DeviceCodeProvider {
  flow: "device-code";
  providerId: string;
  clientId: string;
  scopes: readonly string[];
  deviceCodeUrl: string;
  /** Polled for the GitHub access token. */
  tokenUrl: string;
  /** Exchanges the GitHub token for a short-lived Copilot token (also the refresh step). */
  copilotTokenUrl: string;
  /** Lower bound of the polling interval, in ms (GitHub asks for at least 5 s). */
  minPollIntervalMs: number;
  /** Sent on the Copilot exchange. */
  headers: Readonly<Record<string, string>>;
  multiAccount: boolean;
}

export type OAuthProvider = AuthorizationCodeProvider | DeviceCodeProvider;

/** OAuth configuration per provider id. Pass a modified copy to point flows at a test server. */
export type OAuthProviderTable = Readonly<Record<string, OAuthProvider>>;

const FIVE_MINUTES_MS = 5 * 60_000;

/**
 * Endpoints and client ids from spec edges §2.6–2.7. Differences from the original: every
 * browser flow times out after 5 minutes and checks `state` and the callback path.
 * `cursor` (reads the Cursor IDE database) and `codex` have no OAuth flow; login asks for a key.
 * Google's token endpoint also wants the Gemini CLI client secret, which the spec does not give:
 * set `NYZHI_GEMINI_OAUTH_CLIENT_SECRET` for Gemini login.
 */
export function defaultOAuthProviders(env: Environment = process.env): OAuthProviderTable {
  const gemini: AuthorizationCodeProvider = {
    flow: "authorization-code",
    providerId: "gemini",
    clientId: "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    scopes: [
      "openid",
      "email",
      "https://www.googleapis.com/auth/cloud-platform",
      "https://www.googleapis.com/auth/generative-language",
      "https://www.googleapis.com/auth/userinfo.email",
      "https://www.googleapis.com/auth/userinfo.profile",
    ],
    extraAuthorizeParams: { access_type: "offline", prompt: "consent" },
    redirectHost: "127.0.0.1",
    callbackPath: "/oauth2callback",
    port: 0,
    timeoutMs: FIVE_MINUTES_MS,
    multiAccount: true,
  };
  const geminiSecret = env.NYZHI_GEMINI_OAUTH_CLIENT_SECRET;
  if (geminiSecret) gemini.clientSecret = geminiSecret;
  return withEndpointOverrides(env, {
    openai: {
      flow: "authorization-code",
      providerId: "openai",
      clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
      authorizeUrl: "https://auth.openai.com/oauth/authorize",
      tokenUrl: "https://auth.openai.com/oauth/token",
      scopes: ["openid", "profile", "email", "offline_access"],
      extraAuthorizeParams: { codex_cli_simplified_flow: "true", originator: "codex_cli_rs" },
      redirectHost: "localhost",
      callbackPath: "/auth/callback",
      port: 1455,
      timeoutMs: FIVE_MINUTES_MS,
      multiAccount: false,
    },
    anthropic: {
      flow: "authorization-code",
      providerId: "anthropic",
      clientId: "9d578f71-0cdb-4744-8473-89d98ac13a3a",
      authorizeUrl: "https://console.anthropic.com/oauth/authorize",
      tokenUrl: "https://console.anthropic.com/oauth/token",
      scopes: ["user:inference"],
      redirectHost: "127.0.0.1",
      callbackPath: "/oauth2callback",
      port: 0,
      timeoutMs: FIVE_MINUTES_MS,
      multiAccount: false,
    },
    gemini,
    "github-copilot": {
      flow: "device-code",
      providerId: "github-copilot",
      clientId: "Iv1.b507a08c87ecfe98",
      scopes: ["read:user"],
      deviceCodeUrl: "https://github.com/login/device/code",
      tokenUrl: "https://github.com/login/oauth/access_token",
      copilotTokenUrl: "https://api.github.com/copilot_internal/v2/token",
      minPollIntervalMs: 5000,
      headers: {
        "User-Agent": "GitHubCopilotChat/0.26.7",
        "Editor-Version": "vscode/1.99.3",
        "Editor-Plugin-Version": "copilot-chat/0.26.7",
      },
      multiAccount: false,
    },
  });
}

/**
 * `NYZHI_<PROVIDER>_OAUTH_URL` (the id upper-cased, `-` as `_`) points a browser login at another
 * authorization server (a company's gateway, a local test server): `<url>/authorize` and
 * `<url>/token` replace the provider's endpoints.
 */
function withEndpointOverrides(env: Environment, table: Record<string, OAuthProvider>): OAuthProviderTable {
  for (const [id, provider] of Object.entries(table)) {
    const base = env[`NYZHI_${id.toUpperCase().replace(/-/g, "_")}_OAUTH_URL`]?.replace(/\/+$/, "");
    if (!base || provider.flow !== "authorization-code") continue;
    table[id] = { ...provider, authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token` };
  }
  return table;
}
