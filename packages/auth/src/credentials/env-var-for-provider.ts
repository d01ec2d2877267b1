import { type Environment, findBuiltInProvider } from "@nyzhi/config";

/**
 * The environment variable holding a provider's key: the built-in table's `envVar`, otherwise
 * the id upper-cased with `-` as `_` plus `_API_KEY` (`my-llm` → `MY_LLM_API_KEY`), spec edges §2.1.
 */
export function envVarForProvider(providerId: string): string {
  const builtIn = findBuiltInProvider(providerId);
  if (builtIn) return builtIn.envVar;
  return `${providerId.toUpperCase().replace(/-/g, "_")}_API_KEY`;
}

/** The provider's key from the environment; a variable that is set but empty does not count. */
export function readEnvApiKey(
  providerId: string,
  env: Environment,
): { envVar: string; key: string } | undefined {
  const envVar = envVarForProvider(providerId);
  const key = env[envVar];
  return key ? { envVar, key } : undefined;
}
