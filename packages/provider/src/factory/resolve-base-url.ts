import { findBuiltInProvider } from "@nyzhi/config";
import { configuredBaseUrl, nonEmpty, type ProviderConfigView } from "./provider-config-view.js";
import { baseUrlEnvVar } from "./provider-env-var.js";

export interface ResolveBaseUrlOptions {
  providerId: string;
  /** An explicit URL (a flag or the caller); wins over everything. */
  baseUrl?: string | undefined;
  config?: ProviderConfigView | undefined;
  env?: Record<string, string | undefined> | undefined;
}

/**
 * Where a provider's requests go, first match wins: the explicit `baseUrl`, config
 * `provider.<id>.base_url`, the provider's base-URL environment variable (`ANTHROPIC_BASE_URL`,
 * `OPENAI_BASE_URL`, … from `BUILT_IN_PROVIDERS`, or `<ID>_BASE_URL` for other ids), the built-in
 * default. `undefined` when none applies (an unknown id with nothing configured).
 */
export function resolveBaseUrl(options: ResolveBaseUrlOptions): string | undefined {
  const { providerId } = options;
  const builtIn = findBuiltInProvider(providerId);
  const envVar = baseUrlEnvVar(providerId);
  const env = options.env ?? process.env;
  return (
    nonEmpty(options.baseUrl) ??
    configuredBaseUrl(options.config, providerId) ??
    nonEmpty(env[envVar]) ??
    nonEmpty(builtIn?.defaultBaseUrl)
  );
}

/** The Anthropic SDK appends `/v1/messages`, so a base URL ending in `/v1` loses that suffix. */
export function anthropicSdkBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}
