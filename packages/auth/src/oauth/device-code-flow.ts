import { fetchWithProxy } from "@nyzhi/config";
import { OAuthError } from "../errors/auth-errors.js";
import type { LoginIo } from "./login-io.js";
import type { DeviceCodeProvider } from "./oauth-providers.js";
import { describeErrorBody, exchangeCopilotToken, type OAuthTokens } from "./token-requests.js";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** Added to the interval on `slow_down` (RFC 8628 §3.5), in ms. */
const SLOW_DOWN_STEP_MS = 5000;

export interface DeviceCodeFlowOptions {
  io: Pick<LoginIo, "print">;
  /** Waits between polls; injected so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Stops polling (the person quit or cancelled): the flow fails with "Login cancelled." */
  signal?: AbortSignal | undefined;
}

async function postJson(url: string, body: Record<string, string>): Promise<Response> {
  return fetchWithProxy(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

async function requestDeviceCode(provider: DeviceCodeProvider) {
  const response = await postJson(provider.deviceCodeUrl, {
    client_id: provider.clientId,
    scope: provider.scopes.join(" "),
  }).catch((error: Error) => {
    throw new OAuthError("auth_oauth_failed", `Cannot reach ${provider.deviceCodeUrl} (${error.message}).`);
  });
  if (!response.ok) {
    throw new OAuthError(
      "auth_oauth_failed",
      `Device code request failed: ${await describeErrorBody(response)}.`,
    );
  }
  const body = (await response.json()) as Record<string, unknown>;
  const { device_code: deviceCode, user_code: userCode, verification_uri: verificationUri } = body;
  if (typeof deviceCode !== "string" || typeof userCode !== "string" || typeof verificationUri !== "string") {
    throw new OAuthError(
      "auth_oauth_failed",
      "Device code response lacks device_code, user_code or verification_uri.",
    );
  }
  const intervalSeconds = typeof body.interval === "number" ? body.interval : 5;
  const expiresInSeconds = typeof body.expires_in === "number" ? body.expires_in : 900;
  return { deviceCode, userCode, verificationUri, intervalSeconds, expiresInSeconds };
}

/**
 * GitHub's device flow (RFC 8628) for Copilot: show the code, poll every max(interval, minimum)
 * — `authorization_pending` keeps polling, `slow_down` adds 5 s, `expired_token` and
 * `access_denied` fail — then exchange the GitHub token for a Copilot token.
 */
export async function runDeviceCodeFlow(
  provider: DeviceCodeProvider,
  options: DeviceCodeFlowOptions,
): Promise<OAuthTokens> {
  const sleep =
    options.sleep ??
    ((ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        options.signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      }));
  const now = options.now ?? Date.now;
  const device = await requestDeviceCode(provider);
  options.io.print(`Open ${device.verificationUri} and enter the code ${device.userCode}`);
  let intervalMs = Math.max(device.intervalSeconds * 1000, provider.minPollIntervalMs);
  const deadline = now() + device.expiresInSeconds * 1000;
  while (now() < deadline) {
    await sleep(intervalMs);
    if (options.signal?.aborted) throw new OAuthError("auth_oauth_failed", "Login cancelled.");
    const response = await postJson(provider.tokenUrl, {
      client_id: provider.clientId,
      device_code: device.deviceCode,
      grant_type: DEVICE_GRANT,
    }).catch(() => undefined);
    if (!response?.ok) continue; // Transient failures: keep polling until the code expires.
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body.access_token === "string" && body.access_token) {
      return exchangeCopilotToken(provider, body.access_token);
    }
    if (body.error === "authorization_pending") continue;
    if (body.error === "slow_down") {
      intervalMs =
        typeof body.interval === "number"
          ? Math.max(body.interval * 1000, intervalMs + SLOW_DOWN_STEP_MS)
          : intervalMs + SLOW_DOWN_STEP_MS;
      continue;
    }
    if (body.error === "expired_token") break;
    if (body.error === "access_denied") {
      throw new OAuthError(
        "auth_oauth_failed",
        "GitHub login was denied. Run `nyz login github-copilot` to try again.",
      );
    }
    throw new OAuthError("auth_oauth_failed", `GitHub device login failed: ${String(body.error)}.`);
  }
  throw new OAuthError(
    "auth_oauth_timeout",
    "The GitHub device code expired before it was entered. Run `nyz login github-copilot` again.",
  );
}
