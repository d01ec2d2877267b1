import type { Credential } from "@nyzhi/auth";
import { credentialSecret } from "@nyzhi/auth";
import type OpenAI from "openai";
import { sdkLogger } from "../factory/sdk-logger.js";
import { nodeHttpFetch } from "../http/node-http-fetch.js";
import { rememberOpenAISdk } from "./openai-error.js";

export interface OpenAIClientSettings {
  credential: Credential | undefined;
  /** Base URL including the version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
}

/**
 * Builds the SDK client with everything explicit, so no `OPENAI_*` variable meant for OpenAI
 * (organization, project, admin key) leaks into requests to Groq or DeepSeek. Both credential
 * types go out as `Authorization: Bearer`. With no credential (a local Ollama) no auth header is
 * sent. SDK retries are off: `withRetry` owns retrying.
 */
export async function createOpenAIClient(settings: OpenAIClientSettings): Promise<OpenAI> {
  // Loaded on first use, so start-up and other providers never pay for this SDK.
  const sdk = await import("openai");
  rememberOpenAISdk(sdk);
  const OpenAI = sdk.default;
  const secret = settings.credential ? credentialSecret(settings.credential) : "";
  return new OpenAI({
    apiKey: secret === "" ? "missing" : secret,
    baseURL: settings.baseUrl,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    logger: sdkLogger("openai"),
    defaultHeaders: secret === "" ? { ...settings.headers, Authorization: null } : { ...settings.headers },
    fetch: settings.fetch ?? nodeHttpFetch,
  });
}
