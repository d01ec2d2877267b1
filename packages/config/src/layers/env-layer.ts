import { type PlainObject, setAtPath } from "../key-paths/key-path.js";
import type { Environment } from "../paths/data-dirs.js";
import { parseConfigValue } from "../toml/parse-toml-document.js";
import type { ConfigLayerInput } from "./config-origin.js";

/** Prefix of the generic form: `NYZHI_CONFIG__AGENT__TRUST__MODE=full` sets `agent.trust.mode`. */
export const GENERIC_ENV_PREFIX = "NYZHI_CONFIG__";

/** The shorthand variables and the key each one sets (`NYZHI_MODEL` is handled separately). */
const SHORTHAND_VARIABLES: ReadonlyArray<{ name: string; keyPath: string; literal: boolean }> = [
  { name: "NYZHI_PROVIDER", keyPath: "provider.default", literal: false },
  { name: "NYZHI_TRUST", keyPath: "agent.trust.mode", literal: false },
  { name: "NYZHI_SANDBOX", keyPath: "agent.sandbox", literal: false },
  { name: "NYZHI_MAX_STEPS", keyPath: "agent.max_steps", literal: true },
];

/**
 * Builds the environment layer. Generic `NYZHI_CONFIG__…` variables apply first (sorted by name;
 * path segments split on `__` and lowercased, except the names inside environment and header maps
 * — `NYZHI_CONFIG__SHELL__ENV__GITHUB_TOKEN` sets `shell.env.GITHUB_TOKEN`; the value is a TOML
 * literal when it parses as one, else a string), then the shorthands, which win. `NYZHI_MODEL` sets `provider.<id>.model` for
 * the provider that is the default once the lower layers and `NYZHI_PROVIDER` are applied
 * (`defaultProvider` is that value before the environment). Empty variables are ignored.
 */
export function buildEnvLayer(env: Environment, defaultProvider: string): ConfigLayerInput {
  const data: PlainObject = {};
  const keySources: Record<string, string> = {};
  const set = (keyPath: string, value: unknown, name: string): void => {
    setAtPath(data, keyPath.split("."), value);
    keySources[keyPath] = name;
  };

  const generic = Object.keys(env)
    .filter((name) => name.startsWith(GENERIC_ENV_PREFIX))
    .sort();
  for (const name of generic) {
    const raw = env[name];
    const segments = keySegments(name.slice(GENERIC_ENV_PREFIX.length));
    if (!raw || segments.length === 0) continue;
    set(segments.join("."), parseConfigValue(raw), name);
  }

  for (const variable of SHORTHAND_VARIABLES) {
    const raw = env[variable.name];
    if (!raw) continue;
    set(variable.keyPath, variable.literal ? parseConfigValue(raw) : raw, variable.name);
  }

  const model = env.NYZHI_MODEL;
  if (model) {
    const provider = env.NYZHI_PROVIDER || defaultProvider;
    set(`provider.${provider}.model`, model, "NYZHI_MODEL");
  }

  return { layer: "env", source: "environment", data, keySources };
}

/** Maps whose keys are names the user chose with their case (variables, HTTP headers). */
const CASE_KEPT_MAPS: ReadonlyArray<readonly string[]> = [
  ["shell", "env"],
  ["mcp", "servers", "*", "env"],
  ["mcp", "servers", "*", "headers"],
];

/** `SHELL__ENV__GITHUB_TOKEN` → `["shell", "env", "GITHUB_TOKEN"]`. */
function keySegments(path: string): string[] {
  const original = path.split("__").filter((segment) => segment.length > 0);
  const lowered = original.map((segment) => segment.toLowerCase());
  return lowered.map((segment, index) => {
    const parent = lowered.slice(0, index);
    const keepCase = CASE_KEPT_MAPS.some(
      (map) => map.length === parent.length && map.every((part, at) => part === "*" || part === parent[at]),
    );
    return keepCase ? (original[index] as string) : segment;
  });
}
