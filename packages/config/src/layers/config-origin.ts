import type { PlainObject } from "../key-paths/key-path.js";

/** Where settings come from, lowest precedence first. */
export const CONFIG_LAYERS = ["default", "global", "project", "local", "env", "flag"] as const;
export type ConfigLayerName = (typeof CONFIG_LAYERS)[number];

/** One contributor to a value: a layer and the file, env var or flag in it. */
export interface ConfigSource {
  layer: ConfigLayerName;
  /** File path, env var name (`NYZHI_TRUST`), flag name (`--trust`), or `default`. */
  source: string;
}

/** Where a resolved value came from, and the value itself. */
export interface ConfigOrigin extends ConfigSource {
  value: unknown;
  /**
   * For values built from several layers (deny-list unions, concatenated hooks and commands):
   * every contributing layer, lowest first. `layer`/`source` name the last one.
   */
  merged?: ConfigSource[];
}

/**
 * Origin of every resolved leaf, keyed by dotted key path (`agent.trust.mode`). Arrays are leaves;
 * concatenated arrays also have one entry per element (`agent.hooks.0`). Empty tables are leaves.
 */
export type ConfigOrigins = Record<string, ConfigOrigin>;

/** One layer's raw settings, before validation and merging. */
export interface ConfigLayerInput {
  layer: Exclude<ConfigLayerName, "default">;
  /** The file path for file layers; a label (`environment`, `flags`) for the others. */
  source: string;
  /** The parsed TOML table (or the table built from env vars / flags). */
  data: PlainObject;
  /**
   * Per-key sources for env and flag layers: dotted key path → `NYZHI_TRUST` / `--trust`.
   * A key without an entry (or a prefix with one) is attributed to `source`.
   */
  keySources?: Record<string, string>;
  /** The file's text, to point errors and warnings at lines. */
  text?: string;
}

/** The source name to report for a key path in a layer. */
export function sourceForKey(input: ConfigLayerInput, path: readonly string[]): string {
  if (input.keySources) {
    for (let length = path.length; length > 0; length--) {
      const source = input.keySources[path.slice(0, length).join(".")];
      if (source !== undefined) return source;
    }
  }
  return input.source;
}
