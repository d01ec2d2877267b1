import { envVarForProvider } from "@nyzhi/auth";
import { BUILT_IN_PROVIDERS, type Environment, type NyzhiConfig } from "@nyzhi/config";
import { globToRegExp } from "../../engines/glob/glob-to-regexp.js";
import type { ToolContext } from "../seam/tool-types.js";

/**
 * What the environment of a command (`bash`, `verify`) keeps. The runtime puts it in
 * `context.services.shellEnvironment`; without it commands get the scrubbed process environment.
 */
export interface ShellEnvironmentSettings {
  /** Names or globs (`AWS_*`) of variables kept although they look like credentials (`shell.env_passthrough`). */
  passthrough: readonly string[];
  /** Set for every command after scrubbing (`shell.env`): chosen by the user, so never removed. */
  set: Readonly<Record<string, string>>;
  /** Credentials nyzhi holds (API keys): a variable holding one is removed whatever its name. */
  secretValues: readonly string[];
  /** `shell.startup_commands`: run before each command in the same shell (see withStartupCommands). */
  startupCommands?: readonly string[];
}

export const SHELL_ENVIRONMENT_SERVICE = "shellEnvironment";

/** Names that say "credential": `ANTHROPIC_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `npm_config_…_authToken`. */
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values are not matched as credentials: they would remove ordinary variables (`TERM=xterm`). */
const MIN_SECRET_VALUE_LENGTH = 8;

/**
 * The environment for a command: `base` minus every variable whose name contains KEY, TOKEN,
 * SECRET or PASSWORD (any case) and every variable whose value is a credential nyzhi holds, except
 * the names `passthrough` lists; then `set` on top. Commands run by the model see no API key unless
 * the user passes it through on purpose.
 */
export function buildCommandEnvironment(
  base: Environment,
  settings: ShellEnvironmentSettings,
): { env: Record<string, string>; removed: string[] } {
  const passthrough = settings.passthrough.map((pattern) => globToRegExp(pattern.trim()));
  const secrets = new Set(settings.secretValues.filter((value) => value.length >= MIN_SECRET_VALUE_LENGTH));
  const env: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const credential = CREDENTIAL_NAME.test(name) || secrets.has(value);
    if (credential && !passthrough.some((pattern) => pattern.test(name))) removed.push(name);
    else env[name] = value;
  }
  return { env: { ...env, ...settings.set }, removed: removed.sort() };
}

/**
 * The credentials nyzhi may hold, as values: each configured `provider.<id>.api_key` and the value
 * of every provider's key variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `<ID>_API_KEY` of
 * configured providers) in `env`. Keys from the credential store are not in any variable.
 */
export function heldCredentialValues(config: Pick<NyzhiConfig, "provider">, env: Environment): string[] {
  const values = new Set<string>();
  const variables = new Set(BUILT_IN_PROVIDERS.map((provider) => provider.envVar));
  for (const [id, entry] of Object.entries(config.provider)) {
    if (typeof entry !== "object" || entry === null) continue;
    variables.add(envVarForProvider(id));
    if (entry.api_key) values.add(entry.api_key);
  }
  for (const name of variables) {
    const value = env[name];
    if (value) values.add(value);
  }
  return [...values];
}

/** The agent's settings from `context.services.shellEnvironment`, or scrub-only defaults. */
export function shellEnvironmentOf(context: Pick<ToolContext, "services">): ShellEnvironmentSettings {
  const value = context.services[SHELL_ENVIRONMENT_SERVICE] as Partial<ShellEnvironmentSettings> | undefined;
  return {
    passthrough: Array.isArray(value?.passthrough) ? value.passthrough : [],
    set: typeof value?.set === "object" && value.set !== null ? value.set : {},
    secretValues: Array.isArray(value?.secretValues) ? value.secretValues : [],
    ...(Array.isArray(value?.startupCommands) ? { startupCommands: value.startupCommands } : {}),
  };
}
