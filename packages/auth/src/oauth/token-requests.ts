import { fetchWithProxy } from "@nyzhi/config";
import { OAuthError } from "../errors/auth-errors.js";
import type { AuthorizationCodeProvider, DeviceCodeProvider } from "./oauth-providers.js";

/** Tokens from a token endpoint. `expiresAt` in epoch ms; absent when the server gave no lifetime. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
}

/** `error` and `error_description` of an OAuth error body, never the rest (it may echo tokens). */
export async function describeErrorBody(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    const parts = [body.error, body.error_description].filter((part) => typeof part === "string");
    if (parts.length > 0) return parts.join(": ").slice(0, 200);
  } catch {
    // Not JSON: report the status only.
  }
  return `HTTP ${response.status}`;
}

function tokensFromBody(body: Record<string, unknown>, now: number, where: string): OAuthTokens {
  if (typeof body.access_token !== "string" || !body.access_token) {
    throw new OAuthError("auth_oauth_failed", `${where} returned no access_token.`);
  }
  const tokens: OAuthTokens = { accessToken: body.access_token };
  if (typeof body.refresh_token === "string" && body.refresh_token) tokens.refreshToken = body.refresh_token;
  if (typeof body.expires_in === "number") tokens.expiresAt = now + body.expires_in * 1000;
  return tokens;
}

async function postForm(
  url: string,
  form: Record<string, string>,
  failure: string,
  code: "auth_oauth_failed" | "auth_refresh_failed",
) {
  let response: Response;
  try {
    response = await fetchWithProxy(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new OAuthError(code, `${failure}: cannot reach ${url} (${(error as Error).message}).`);
  }
  if (!response.ok) throw new OAuthError(code, `${failure}: ${await describeErrorBody(response)}.`);
  return (await response.json()) as Record<string, unknown>;
}

/** Exchanges an authorization code plus PKCE verifier for tokens (form POST). */
export async function exchangeAuthorizationCode(
  provider: AuthorizationCodeProvider,
  request: { code: string; verifier: string; redirectUri: string },
  now: () => number = Date.now,
): Promise<OAuthTokens> {
  const form: Record<string, string> = {
    grant_type: "authorization_code",
    code: request.code,
    redirect_uri: request.redirectUri,
    client_id: provider.clientId,
    code_verifier: request.verifier,
  };
  if (provider.clientSecret) form.client_secret = provider.clientSecret;
  const body = await postForm(
    provider.tokenUrl,
    form,
    `${provider.providerId} token exchange failed`,
    "auth_oauth_failed",
  );
  return tokensFromBody(body, now(), `${provider.providerId} token endpoint`);
}

/** Trades a GitHub token for a Copilot token; the GitHub token is kept as the refresh token. */
export async function exchangeCopilotToken(
  provider: DeviceCodeProvider,
  githubToken: string,
  code: "auth_oauth_failed" | "auth_refresh_failed" = "auth_oauth_failed",
): Promise<OAuthTokens> {
  const response = await fetchWithProxy(provider.copilotTokenUrl, {
    headers: { ...provider.headers, Authorization: `token ${githubToken}`, Accept: "application/json" },
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw new OAuthError(code, `Cannot reach ${provider.copilotTokenUrl} (${error.message}).`);
  });
  if (response.status === 401 || response.status === 403) {
    throw new OAuthError(
      code,
      "GitHub refused the Copilot token: this account has no active Copilot subscription.",
    );
  }
  if (!response.ok)
    throw new OAuthError(code, `Copilot token exchange failed: ${await describeErrorBody(response)}.`);
  const body = (await response.json()) as { token?: unknown; expires_at?: unknown };
  if (typeof body.token !== "string" || !body.token) {
    throw new OAuthError(code, "Copilot token exchange returned no token.");
  }
  const tokens: OAuthTokens = { accessToken: body.token, refreshToken: githubToken };
  if (typeof body.expires_at === "number") tokens.expiresAt = body.expires_at * 1000;
  return tokens;
}

/**
 * Refreshes tokens: a `refresh_token` grant for browser-flow providers, a new Copilot exchange
 * for Copilot. A response without a new refresh token keeps the old one.
 */
export async function refreshOAuthTokens(
  provider: AuthorizationCodeProvider | DeviceCodeProvider,
  refreshToken: string,
  now: () => number = Date.now,
): Promise<OAuthTokens> {
  if (provider.flow === "device-code")
    return exchangeCopilotToken(provider, refreshToken, "auth_refresh_failed");
  const form: Record<string, string> = {
    grant_type: "refresh_token",
    client_id: provider.clientId,
    refresh_token: refreshToken,
  };
  if (provider.clientSecret) form.client_secret = provider.clientSecret;
  const body = await postForm(
    provider.tokenUrl,
    form,
    `${provider.providerId} token refresh failed`,
    "auth_refresh_failed",
  );
  const tokens = tokensFromBody(body, now(), `${provider.providerId} token endpoint`);
  if (!tokens.refreshToken) tokens.refreshToken = refreshToken;
  return tokens;
}
