import type Anthropic from "@anthropic-ai/sdk";
import type { Credential } from "@nyzhi/auth";
import { sdkLogger } from "../factory/sdk-logger.js";
import { nodeHttpFetch } from "../http/node-http-fetch.js";

/** Beta flag the Anthropic API requires alongside an OAuth (Claude subscription) access token. */
export const ANTHROPIC_OAUTH_BETA = "oauth-2025-04-20";

export interface AnthropicClientSettings {
  credential: Credential | undefined;
  /** Base URL without the `/v1` suffix (the SDK appends `/v1/messages`). */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  /**
   * The SDK's OpenTelemetry spans. Off by default: nyzhi registers no tracer, and the SDK still
   * builds each span's attributes from the request (~0.25 ms per call). An application embedding
   * the provider with OpenTelemetry set up can pass `true` or the SDK's options object.
   */
  openTelemetry?: boolean | SdkTelemetryOption;
}

/**
 * Builds the SDK client so each credential goes out the way Anthropic expects (this fixes the
 * Rust port, which sent OAuth tokens as `x-api-key`, spec edges §3.5):
 * - an API key as `x-api-key` — this SDK version sends its `apiKey` option as
 *   `Authorization: Bearer`, so the key is set as a header and the Bearer header removed;
 * - an OAuth access token as `Authorization: Bearer` (the SDK's `authToken`), with the OAuth beta flag.
 * Passing a credential explicitly also stops the SDK from reading `ANTHROPIC_*` variables or
 * profile files from the user's home directory. SDK retries are off: `withRetry` owns retrying.
 */
export async function createAnthropicClient(settings: AnthropicClientSettings): Promise<Anthropic> {
  // Loaded on first use, so start-up and other providers never pay for this SDK.
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const common = {
    baseURL: settings.baseUrl,
    maxRetries: 0,
    logger: sdkLogger("anthropic"),
    fetch: settings.fetch ?? nodeHttpFetch,
    ...telemetryOption(settings.openTelemetry),
  };
  const credential = settings.credential;
  if (credential?.type === "oauth") {
    return new Anthropic({
      ...common,
      authToken: credential.accessToken,
      defaultHeaders: { ...settings.headers, "anthropic-beta": ANTHROPIC_OAUTH_BETA },
    });
  }
  const key = credential?.key ?? "";
  return new Anthropic({
    ...common,
    apiKey: key === "" ? "missing" : key,
    defaultHeaders: {
      ...settings.headers,
      // A header set to null is removed; a missing key still reaches the server and 401s there.
      Authorization: null,
      "x-api-key": key === "" ? null : key,
    },
  });
}

type SdkTelemetryOption = Exclude<ConstructorParameters<typeof Anthropic>[0], undefined>["openTelemetry"];

/** `true` leaves the SDK to its defaults (and `ANTHROPIC_OPEN_TELEMETRY*`); unset means off. */
function telemetryOption(option: AnthropicClientSettings["openTelemetry"]): {
  openTelemetry?: SdkTelemetryOption;
} {
  if (option === true) return {};
  return { openTelemetry: option === undefined ? false : option };
}
