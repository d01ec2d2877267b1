import type { ConfigWarning } from "../base/config-error.js";
import { cloneData, isPlainObject, type PlainObject } from "../key-paths/key-path.js";
import { configSchema, type NyzhiConfig, ONE_SHOT } from "../schema/config-schema.js";
import {
  type ConfigLayerInput,
  type ConfigOrigin,
  type ConfigOrigins,
  type ConfigSource,
  sourceForKey,
} from "./config-origin.js";
import { validateLayer } from "./validate-layer.js";

/**
 * How a key combines across layers. Everything not listed merges by key: tables recurse
 * (so `provider.<id>` fields, `shell.env` and `tui.colors` merge entry by entry) and any other
 * value set by a later layer replaces the earlier one — including a value equal to the default.
 */
type MergeRule = "deep" | "replace-entry" | "union" | "concat";

const UNION_KEYS = new Set(["agent.trust.deny_tools", "agent.trust.deny_paths", "index.exclude"]);
const CONCAT_KEYS = new Set(["agent.hooks", "agent.commands"]);
/** Maps whose entries are replaced whole by a later layer (an MCP server or a role is one unit). */
const ENTRY_MAPS = new Set(["mcp.servers", "agent.agents.roles"]);

function mergeRuleFor(path: readonly string[]): MergeRule {
  const keyPath = path.join(".");
  if (UNION_KEYS.has(keyPath)) return "union";
  if (CONCAT_KEYS.has(keyPath)) return "concat";
  if (ENTRY_MAPS.has(path.slice(0, -1).join("."))) return "replace-entry";
  return "deep";
}

export interface MergedConfig {
  config: NyzhiConfig;
  origins: ConfigOrigins;
  warnings: ConfigWarning[];
}

type SourceMap = Map<string, ConfigSource & { merged?: ConfigSource[] }>;

class LayerMerger {
  readonly sources: SourceMap = new Map();
  private input: ConfigLayerInput | undefined;

  /** Merges one validated layer into `target`, recording where each key came from. */
  mergeLayer(target: PlainObject, input: ConfigLayerInput, data: PlainObject): void {
    this.input = input;
    this.merge(target, data);
  }

  private sourceOf(path: readonly string[]): ConfigSource {
    if (!this.input) throw new Error("LayerMerger used outside mergeLayer");
    return { layer: this.input.layer, source: sourceForKey(this.input, path) };
  }

  private forget(prefix: string): void {
    for (const key of this.sources.keys()) {
      if (key === prefix || key.startsWith(`${prefix}.`)) this.sources.delete(key);
    }
  }

  /** Records every leaf of `value` at `path` as coming from the current layer. */
  private record(path: string[], value: unknown): void {
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, item] of Object.entries(value)) this.record([...path, key], item);
      return;
    }
    this.sources.set(path.join("."), this.sourceOf(path));
  }

  private merge(target: PlainObject, layer: PlainObject, path: string[] = []): void {
    for (const [key, value] of Object.entries(layer)) {
      const childPath = [...path, key];
      const keyPath = childPath.join(".");
      const rule = mergeRuleFor(childPath);
      if (rule === "union" || rule === "concat") {
        const previous = Array.isArray(target[key]) ? (target[key] as unknown[]) : [];
        const added = cloneData(value as unknown[]);
        const combined = [...previous, ...added];
        target[key] = rule === "union" ? [...new Set(combined.map((item) => String(item)))].sort() : combined;
        this.recordCombined(childPath, previous.length, added);
      } else if (rule === "deep" && isPlainObject(value)) {
        if (!isPlainObject(target[key])) {
          this.forget(keyPath);
          target[key] = {};
          this.record(childPath, {});
        }
        this.merge(target[key] as PlainObject, value, childPath);
      } else {
        this.forget(keyPath);
        target[key] = cloneData(value);
        this.record(childPath, value);
      }
    }
  }

  private recordCombined(path: string[], offset: number, added: unknown[]): void {
    const keyPath = path.join(".");
    const current = this.sourceOf(path);
    const previous = this.sources.get(keyPath);
    const earlier = previous ? (previous.merged ?? [{ layer: previous.layer, source: previous.source }]) : [];
    this.sources.set(keyPath, { ...current, merged: [...earlier, current] });
    added.forEach((_, index) => {
      this.sources.set(`${keyPath}.${offset + index}`, current);
    });
  }
}

/** Collects the origin of every leaf of the resolved config; unrecorded leaves are defaults. */
function collectOrigins(config: NyzhiConfig, sources: SourceMap): ConfigOrigins {
  const origins: ConfigOrigins = {};
  const visit = (value: unknown, path: string[]): void => {
    if (value === undefined) return;
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
      return;
    }
    const keyPath = path.join(".");
    origins[keyPath] = originFor(keyPath, value, sources);
    if (Array.isArray(value) && CONCAT_KEYS.has(keyPath)) {
      value.forEach((item, index) => {
        origins[`${keyPath}.${index}`] = originFor(`${keyPath}.${index}`, item, sources);
      });
    }
  };
  visit(config, []);
  return origins;
}

function originFor(keyPath: string, value: unknown, sources: SourceMap): ConfigOrigin {
  const source = sources.get(keyPath);
  if (!source) return { layer: "default", source: "default", value };
  return source.merged ? { ...source, value } : { layer: source.layer, source: source.source, value };
}

/**
 * Validates each layer and merges them, lowest first (global, project, local, env, flag; the
 * defaults come from the schema). A key a layer sets wins over lower layers even when it equals
 * the default; `mcp.servers.<name>` and `agent.agents.roles.<name>` entries are replaced whole;
 * deny lists and `index.exclude` are unions (sorted, deduped); hooks and commands concatenate.
 * Throws ConfigError when a layer has a wrong value.
 */
export function mergeConfigLayers(layers: readonly ConfigLayerInput[]): MergedConfig {
  const warnings: ConfigWarning[] = [];
  const merged: PlainObject = {};
  const merger = new LayerMerger();
  for (const input of layers) {
    const validated = validateLayer(input);
    warnings.push(...validated.warnings);
    merger.mergeLayer(merged, input, validated.data);
  }
  const config = configSchema.parse(merged, ONE_SHOT);
  return { config, origins: collectOrigins(config, merger.sources), warnings };
}
