import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { ConfigWarning } from "../base/config-error.js";
import {
  cloneData,
  dataEquals,
  deleteAtPath,
  getAtPath,
  isPlainObject,
  type PlainObject,
  splitKeyPath,
} from "../key-paths/key-path.js";
import {
  normalizeSandboxLevel,
  normalizeTrustMode,
  SANDBOX_LEVELS,
  TRUST_MODES,
} from "../schema/config-enums.js";
import { defaultConfig, type NyzhiConfig } from "../schema/config-schema.js";
import type { ConfigLayerInput } from "./config-origin.js";
import { mergeConfigLayers } from "./merge-layers.js";
import { validateLayer } from "./validate-layer.js";

/**
 * Project trust. A project's own files (`.nyzhi/config.toml`, `.nyzhi/config.local.toml`,
 * `.mcp.json`) come with the repository, and under `autoedit` the model itself may have written
 * them; so the settings in them that widen what nyzhi does unasked — run commands outside the
 * sandbox, skip approvals, reach further — apply only in a project the user trusted (`nyz trust`,
 * recorded as `[projects."<root>"] trusted = true` in the global config; or `--trust-project`
 * for one run). Settings that only narrow (deny rules, `always_ask`, a stricter sandbox or trust
 * mode than the global one) apply everywhere.
 */

/** Whether a project value narrows (or keeps) what the lower layers allow; absent: never kept. */
type Narrows = (value: unknown, base: unknown) => boolean;

const rank = (list: readonly string[], value: unknown): number =>
  typeof value === "string" ? list.indexOf(value) : -1;
const lowerTrust: Narrows = (value, base) => {
  const mode = rank(TRUST_MODES, normalizeTrustMode(value));
  return mode >= 0 && mode <= rank(TRUST_MODES, base);
};
const stricterSandbox: Narrows = (value, base) => {
  const level = rank(SANDBOX_LEVELS, normalizeSandboxLevel(value));
  return level >= 0 && level <= rank(SANDBOX_LEVELS, base);
};
const subset: Narrows = (value, base) =>
  Array.isArray(value) &&
  Array.isArray(base) &&
  value.every((item) => base.some((allowed) => dataEquals(item, allowed)));
const same: Narrows = (value, base) => dataEquals(value, base);
const only =
  (narrow: unknown): Narrows =>
  (value) =>
    value === narrow;
/** `allow_paths` limits auto-approval: a non-empty list within the global one narrows it. */
const fewerPaths: Narrows = (value, base) =>
  Array.isArray(value) &&
  value.length > 0 &&
  (!Array.isArray(base) || base.length === 0 || subset(value, base));

/**
 * Keys that widen power, with how a project value may still narrow them. `*` matches any one
 * key (a provider id). `agent.hooks` and `mcp.servers` run commands: never taken from an
 * untrusted project. `provider.*.base_url` decides where the API key is sent.
 */
export const PROJECT_POWER_KEYS: ReadonlyArray<readonly [keyPath: string, narrows?: Narrows]> = [
  ["agent.trust.mode", lowerTrust],
  ["agent.trust.allow_tools", subset],
  ["agent.trust.allow_paths", fewerPaths],
  ["agent.trust.auto_approve", subset],
  ["agent.trust.remember_approvals", only(false)],
  ["agent.sandbox", stricterSandbox],
  ["agent.hooks"],
  ["mcp.servers"],
  ["shell.path", same],
  ["shell.startup_commands", subset],
  ["shell.env_passthrough", subset],
  ["shell.sandbox.enabled", only(true)],
  ["shell.sandbox.allow_network", subset],
  ["shell.sandbox.allow_read", subset],
  ["shell.sandbox.allow_write", subset],
  ["shell.sandbox.block_dotfiles", only(true)],
  ["browser.executable_path", same],
  ["web.allow_private", only(false)],
  ["web.allow_hosts", subset],
  ["provider.*.base_url", same],
];

/** The key under which `[projects]` records a project root (its absolute path). */
export function projectTrustKey(projectRoot: string): string {
  return resolve(projectRoot);
}

/** Whether the global config's `[projects."<root>"]` says `trusted = true`. */
export function isProjectTrusted(globalData: PlainObject | undefined, projectRoot: string): boolean {
  const projects = globalData?.projects;
  if (!isPlainObject(projects)) return false;
  const entry = projects[projectTrustKey(projectRoot)];
  return isPlainObject(entry) && entry.trusted === true;
}

/** Concrete key paths in `data` for a pattern with `*` segments. */
function expand(data: PlainObject, pattern: readonly string[], prefix: string[] = []): string[][] {
  const [head, ...rest] = pattern;
  if (head === undefined) return [prefix];
  if (head !== "*") {
    const next = getAtPath(data, [...prefix, head]);
    return next === undefined ? [] : expand(data, rest, [...prefix, head]);
  }
  const table = getAtPath(data, prefix);
  if (!isPlainObject(table)) return [];
  return Object.keys(table).flatMap((key) => expand(data, rest, [...prefix, key]));
}

/**
 * Removes from one untrusted project layer's raw table every power key it sets that does not
 * narrow `base` (the configuration of the layers below: defaults and the global file). Returns
 * the removed key paths. `base` is called only when there is something to compare.
 */
export function removePowerKeys(data: PlainObject, base: () => NyzhiConfig): string[] {
  const removed: string[] = [];
  for (const [keyPath, narrows] of PROJECT_POWER_KEYS) {
    for (const path of expand(data, splitKeyPath(keyPath))) {
      const value = getAtPath(data, path);
      if (narrows?.(value, getAtPath(base(), path))) continue;
      deleteAtPath(data, path);
      removed.push(path.join("."));
    }
  }
  return removed;
}

/** Names of the servers a project's `.mcp.json` defines (none when it is missing or unreadable). */
export async function mcpJsonServerNames(projectRoot: string): Promise<string[]> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(join(projectRoot, ".mcp.json"), "utf8"));
  } catch {
    // Missing or broken: there is nothing to ignore (the MCP loader is not asked to read it).
    return [];
  }
  if (!isPlainObject(document)) return [];
  const servers = document.mcpServers ?? document.mcp_servers;
  return isPlainObject(servers) ? Object.keys(servers) : [];
}

export interface ProjectTrustResult {
  /** The file layers to merge: the project and local ones without their power keys when untrusted. */
  layers: ConfigLayerInput[];
  /** Whether the project's own settings may widen power (trusted, or `--trust-project`). */
  trusted: boolean;
  /** One warning naming every ignored key and how to trust the project; absent when none was. */
  warning?: ConfigWarning;
}

/**
 * Applies project trust to the file layers (global first): a trusted project's layers are kept
 * as they are; an untrusted one's lose their power keys (`removePowerKeys`), and the servers of
 * its `.mcp.json` are named in the same single warning (the MCP loader skips that file).
 */
export async function applyProjectTrust(
  fileLayers: readonly ConfigLayerInput[],
  options: { projectRoot: string; trustProject?: boolean | undefined },
): Promise<ProjectTrustResult> {
  const global = fileLayers.find((layer) => layer.layer === "global");
  const trusted = options.trustProject === true || isProjectTrusted(global?.data, options.projectRoot);
  if (trusted) return { layers: [...fileLayers], trusted };
  let base: NyzhiConfig | undefined;
  const baseConfig = () => {
    base ??= global ? mergeConfigLayers([global]).config : defaultConfig();
    return base;
  };
  const ignored: Array<{ keyPaths: string[]; source: string }> = [];
  const layers = fileLayers.map((layer) => {
    if (layer.layer === "global") return layer;
    const data = cloneData(layer.data);
    const keyPaths = removePowerKeys(data, baseConfig);
    if (keyPaths.length === 0) return layer;
    // A wrong value is still reported (file and line) rather than hidden by the removal.
    validateLayer(layer);
    ignored.push({ keyPaths, source: layer.source });
    return { ...layer, data };
  });
  const servers = await mcpJsonServerNames(options.projectRoot);
  if (servers.length > 0) {
    const keyPaths = servers.map((name) => `mcpServers.${name}`);
    ignored.push({ keyPaths, source: join(options.projectRoot, ".mcp.json") });
  }
  const first = ignored[0];
  if (first === undefined) return { layers, trusted };
  const listed = ignored.map((entry) => `${entry.keyPaths.join(", ")} from ${entry.source}`).join("; ");
  const message =
    `warning: ${projectTrustKey(options.projectRoot)} is not a trusted project, so its settings ` +
    `that widen what nyzhi may do are ignored: ${listed}. ` +
    "Run `nyz trust` in the project to trust it, or pass --trust-project for one run.";
  return {
    layers,
    trusted,
    warning: {
      kind: "untrusted-project",
      source: first.source,
      keyPath: first.keyPaths[0] ?? "",
      keyPaths: ignored.flatMap((entry) => entry.keyPaths),
      message,
    },
  };
}
