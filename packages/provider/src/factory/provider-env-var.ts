import { findBuiltInProvider } from "@nyzhi/config";

/**
 * The environment variable holding a provider's API key: the built-in table's, else
 * `UPPERCASE(id)` with `-` as `_` plus `_API_KEY` (spec edges §2.1: `my-llm` → `MY_LLM_API_KEY`).
 */
export function apiKeyEnvVar(providerId: string): string {
  const builtIn = findBuiltInProvider(providerId);
  if (builtIn) return builtIn.envVar;
  return `${providerId.toUpperCase().replace(/-/g, "_")}_API_KEY`;
}

/** The provider's display name (`Anthropic`), or its id when it is not built in. */
export function providerDisplayName(providerId: string): string {
  return findBuiltInProvider(providerId)?.name ?? providerId;
}

/**
 * The environment variable holding a provider's base URL: the built-in table's, else
 * `UPPERCASE(id)` with `-` as `_` plus `_BASE_URL`.
 */
export function baseUrlEnvVar(providerId: string): string {
  return (
    findBuiltInProvider(providerId)?.baseUrlEnvVar ??
    `${providerId.toUpperCase().replace(/-/g, "_")}_BASE_URL`
  );
}
