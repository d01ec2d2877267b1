import { type PlainObject, setAtPath, splitKeyPath } from "../key-paths/key-path.js";
import type { ConfigLayerInput } from "./config-origin.js";

/**
 * Builds the command-line layer from dotted key paths to values, e.g.
 * `{ "provider.default": "anthropic", "agent.trust.mode": "full" }`. Values are used as given
 * (use `parseConfigValue` first for raw `-c key=value` text). `flagNames` names the flag behind
 * each key (`{ "agent.trust.mode": "--trust" }`) for origins and messages; default `--<keyPath>`.
 */
export function buildFlagLayer(
  flags: Readonly<Record<string, unknown>>,
  flagNames: Readonly<Record<string, string>> = {},
): ConfigLayerInput {
  const data: PlainObject = {};
  const keySources: Record<string, string> = {};
  for (const [keyPath, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    const segments = splitKeyPath(keyPath);
    setAtPath(data, segments, value);
    keySources[segments.join(".")] = flagNames[keyPath] ?? `--${keyPath}`;
  }
  return { layer: "flag", source: "flags", data, keySources };
}
