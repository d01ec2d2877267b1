import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthorizationCodeProvider, DeviceCodeProvider } from "../oauth-providers.js";

/** Answer of the device-token endpoint, in order; the last one repeats. */
export type DevicePollAnswer = "authorization_pending" | "slow_down" | "expired_token" | "access_denied" | "success";

export interface FakeAuthorizationServerOptions {
  /** Sent back instead of the client's state, to simulate a forged redirect. */
  forgedState?: string;
  devicePolls?: DevicePollAnswer[];
  /** Seconds in the `interval` of the device-code answer. */
  deviceInterval?: number;
  accessTokenLifetimeSeconds?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

/**
 * An OAuth authorization server on 127.0.0.1 for tests: /authorize redirects to the client's
 * redirect_uri with a code, /token checks the PKCE verifier against the recorded challenge and
 * issues tokens (and refreshes them), /device/* play GitHub's device flow, /copilot/token the
 * Copilot exchange. Every request is recorded.
 */
export async function startFakeAuthorizationServer(options: FakeAuthorizationServerOptions = {}) {
  const requests: RecordedRequest[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const devicePolls = [...(options.devicePolls ?? ["success"])];
  const lifetime = options.accessTokenLifetimeSeconds ?? 3600;
  let issued = 0;

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };

  const readParams = async (request: IncomingMessage, url: URL): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (request.headers["content-type"]?.includes("application/json")) return JSON.parse(text || "{}");
    const params = Object.fromEntries(new URLSearchParams(text));
    return { ...Object.fromEntries(url.searchParams), ...params };
  };

  const handleToken = (params: Record<string, string>, response: ServerResponse) => {
    if (params.grant_type === "authorization_code") {
      const grant = codes.get(params.code ?? "");
      const challenge = createHash("sha256")
        .update(params.code_verifier ?? "")
        .digest("base64url");
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== params.redirect_uri) {
        json(response, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        return;
      }
      codes.delete(params.code ?? "");
      issued += 1;
      json(response, 200, {
        access_token: `access-${issued}`,
        refresh_token: `refresh-${issued}`,
        expires_in: lifetime,
      });
      return;
    }
    if (params.grant_type === "refresh_token" && params.refresh_token?.startsWith("refresh-")) {
      issued += 1;
      json(response, 200, { access_token: `access-${issued}`, expires_in: lifetime });
      return;
    }
    json(response, 400, { error: "unsupported_grant_type" });
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const params = await readParams(request, url);
    const recorded: RecordedRequest = { method: request.method ?? "", path: url.pathname, params };
    if (request.headers.authorization) recorded.authorization = request.headers.authorization;
    requests.push(recorded);
    if (url.pathname === "/authorize") {
      const code = `code-${codes.size + 1}`;
      codes.set(code, {
        challenge: params.code_challenge ?? "",
        redirectUri: params.redirect_uri ?? "",
        clientId: params.client_id ?? "",
      });
      const target = new URL(params.redirect_uri ?? "");
      target.searchParams.set("code", code);
      target.searchParams.set("state", options.forgedState ?? params.state ?? "");
      response.writeHead(302, { Location: target.toString() });
      response.end();
    } else if (url.pathname === "/token") {
      handleToken(params, response);
    } else if (url.pathname === "/device/code") {
      json(response, 200, {
        device_code: "device-123",
        user_code: "ABCD-1234",
        verification_uri: "https://github.com/login/device",
        interval: options.deviceInterval ?? 1,
        expires_in: 900,
      });
    } else if (url.pathname === "/device/token") {
      const answer = devicePolls.length > 1 ? devicePolls.shift() : devicePolls[0];
      if (answer === "success") json(response, 200, { access_token: "gh-token", token_type: "bearer" });
      else json(response, 200, { error: answer });
    } else if (url.pathname === "/copilot/token") {
      if (request.headers.authorization !== "token gh-token") json(response, 401, { message: "Bad credentials" });
      else json(response, 200, { token: `copilot-${++issued}`, expires_at: 2_000_000_000 });
    } else {
      json(response, 404, { error: "not_found" });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const authorizationCodeProvider = (overrides: Partial<AuthorizationCodeProvider> = {}): AuthorizationCodeProvider => ({
    flow: "authorization-code",
    providerId: "openai",
    clientId: "test-client",
    authorizeUrl: `${base}/authorize`,
    tokenUrl: `${base}/token`,
    scopes: ["openid", "offline_access"],
    redirectHost: "127.0.0.1",
    callbackPath: "/auth/callback",
    port: 0,
    timeoutMs: 5_000,
    multiAccount: false,
    ...overrides,
  });

  const deviceCodeProvider = (): DeviceCodeProvider => ({
    flow: "device-code",
    providerId: "github-copilot",
    clientId: "test-device-client",
    scopes: ["read:user"],
    deviceCodeUrl: `${base}/device/code`,
    tokenUrl: `${base}/device/token`,
    copilotTokenUrl: `${base}/copilot/token`,
    minPollIntervalMs: 0,
    headers: { "User-Agent": "test" },
    multiAccount: false,
  });

  return {
    base,
    requests,
    authorizationCodeProvider,
    deviceCodeProvider,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeAuthorizationServer = Awaited<ReturnType<typeof startFakeAuthorizationServer>>;

/** Plays the browser: opens the authorize URL and follows its redirect to the loopback callback. */
export async function actAsBrowser(url: string): Promise<void> {
  const authorize = await fetch(url, { redirect: "manual" });
  const location = authorize.headers.get("location");
  if (!location) throw new Error(`authorize answered ${authorize.status} without a redirect`);
  await fetch(location).then((response) => response.text());
}
