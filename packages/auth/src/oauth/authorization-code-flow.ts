import { getLogger } from "@nyzhi/config";
import type { LoginIo } from "./login-io.js";
import { startLoopbackCallbackServer } from "./loopback-callback-server.js";
import type { AuthorizationCodeProvider } from "./oauth-providers.js";
import { openBrowser } from "./open-browser.js";
import { createPkcePair } from "./pkce.js";
import { exchangeAuthorizationCode, type OAuthTokens } from "./token-requests.js";

/** The authorize URL for a provider, redirect URI and PKCE values. */
export function buildAuthorizeUrl(
  provider: AuthorizationCodeProvider,
  request: { redirectUri: string; challenge: string; state: string },
): string {
  const url = new URL(provider.authorizeUrl);
  const params: Record<string, string> = {
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: request.redirectUri,
    scope: provider.scopes.join(" "),
    code_challenge: request.challenge,
    code_challenge_method: "S256",
    state: request.state,
    ...provider.extraAuthorizeParams,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * The browser login: PKCE S256, a callback server on 127.0.0.1, the authorize URL printed and
 * opened, `state` checked, then the code exchanged for tokens. Rejects with an OAuthError on
 * timeout (`provider.timeoutMs`), state mismatch, denial or a failed exchange.
 */
export async function runAuthorizationCodeFlow(
  provider: AuthorizationCodeProvider,
  options: { io: Pick<LoginIo, "print" | "openUrl">; now?: () => number; signal?: AbortSignal | undefined },
): Promise<OAuthTokens> {
  const pkce = createPkcePair();
  const server = await startLoopbackCallbackServer({
    port: provider.port,
    callbackPath: provider.callbackPath,
    expectedState: pkce.state,
    timeoutMs: provider.timeoutMs,
  });
  // Cancelled (the person quit the app or typed /login cancel): the callback server closes now.
  const cancel = () => server.close();
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener("abort", cancel, { once: true });
  const redirectUri = `http://${provider.redirectHost}:${server.port}${provider.callbackPath}`;
  const url = buildAuthorizeUrl(provider, { redirectUri, challenge: pkce.challenge, state: pkce.state });
  let code: string;
  try {
    options.io.print(`Open this URL in your browser to log in to ${provider.providerId}:`);
    options.io.print(url);
    try {
      await (options.io.openUrl ?? openBrowser)(url);
    } catch (error) {
      getLogger().debug({ error: (error as Error).message }, "opening the browser failed");
    }
    code = await server.code;
  } finally {
    options.signal?.removeEventListener("abort", cancel);
    server.close();
  }
  return exchangeAuthorizationCode(provider, { code, verifier: pkce.verifier, redirectUri }, options.now);
}
