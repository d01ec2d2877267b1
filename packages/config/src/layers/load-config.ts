import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, type ConfigWarning } from "../base/config-error.js";
import { errorMessage } from "../base/errors.js";
import { forEachSecretValue } from "../display/redact-secrets.js";
import { isPlainObject, type PlainObject } from "../key-paths/key-path.js";
import { type Environment, globalConfigPath } from "../paths/data-dirs.js";
import type { NyzhiConfig } from "../schema/config-schema.js";
import { registerSecret } from "../secrets/known-secrets.js";
import { parseTomlDocument } from "../toml/parse-toml-document.js";
import { findProjectRoot } from "../workspace/find-project-root.js";
import type { ConfigLayerInput, ConfigOrigins } from "./config-origin.js";
import { buildEnvLayer } from "./env-layer.js";
import { buildFlagLayer } from "./flag-layer.js";
import { mergeConfigLayers } from "./merge-layers.js";
import { applyProjectTrust } from "./project-trust.js";

export interface LoadConfigOptions {
  /** Where project root discovery starts. Default `process.cwd()`. */
  cwd?: string;
  /** The project root, skipping discovery. */
  projectRoot?: string;
  /** The environment to read (`NYZHI_HOME`, `XDG_CONFIG_HOME`, `NYZHI_*`). Default `process.env`. */
  env?: Environment;
  /** The global config file. Default `globalConfigPath(env)`. */
  globalConfigFile?: string;
  /** Command-line values by dotted key path, the highest layer. */
  flags?: Readonly<Record<string, unknown>>;
  /** The flag behind each key in `flags` (`{ "agent.trust.mode": "--trust" }`), for origins. */
  flagNames?: Readonly<Record<string, string>>;
  /** Trust the project for this load (`--trust-project`), whatever `[projects]` says. */
  trustProject?: boolean;
}

/** A config file that was found and read. */
export interface ConfigFile {
  layer: "global" | "project" | "local";
  path: string;
}

export interface LoadedConfig {
  config: NyzhiConfig;
  /** Origin of every resolved value, by dotted key path. */
  origins: ConfigOrigins;
  /** Unknown keys, ignored global-only keys, deprecated keys: show them, then carry on. */
  warnings: ConfigWarning[];
  /** The files that exist and were merged, lowest layer first. */
  files: ConfigFile[];
  projectRoot: string;
  /**
   * Whether the project's own settings may widen power (see `applyProjectTrust`). False: its
   * power keys were ignored, and `.mcp.json` must not be read either (pass this to the MCP loader).
   */
  projectTrusted: boolean;
}

/** Paths of the three config files for a project root. */
export function configFilePaths(
  projectRoot: string,
  env: Environment = process.env,
): { global: string; project: string; local: string } {
  return {
    global: globalConfigPath(env),
    project: join(projectRoot, ".nyzhi", "config.toml"),
    local: join(projectRoot, ".nyzhi", "config.local.toml"),
  };
}

/** Reads and parses one config file; undefined when it does not exist. */
export async function readConfigFile(
  path: string,
  layer: ConfigFile["layer"],
): Promise<ConfigLayerInput | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError("config_read_failed", `${path}: cannot read config: ${errorMessage(error)}`, {
      file: path,
    });
  }
  text = text.replace(/^\uFEFF/, "");
  return { layer, source: path, data: parseTomlDocument(text, path), text };
}

function lastProviderDefault(layers: readonly ConfigLayerInput[]): string {
  let provider = "openai";
  for (const layer of layers) {
    const section = layer.data.provider;
    if (isPlainObject(section) && typeof (section as PlainObject).default === "string") {
      provider = (section as PlainObject).default as string;
    }
  }
  return provider;
}

/**
 * Loads the configuration: defaults, then the global file, the project file
 * (`<root>/.nyzhi/config.toml`), the local file (`<root>/.nyzhi/config.local.toml`), the
 * environment and the flags, each overriding the ones before (see `mergeConfigLayers`). In a
 * project the user has not trusted, the project and local files' power keys are ignored with one
 * warning (see `applyProjectTrust`).
 * Throws ConfigError for invalid TOML or an invalid value; unknown keys are warnings.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const projectRoot = options.projectRoot ?? findProjectRoot(options.cwd ?? process.cwd());
  const paths = configFilePaths(projectRoot, env);
  const candidates: Array<[ConfigFile["layer"], string]> = [
    ["global", options.globalConfigFile ?? paths.global],
    ["project", paths.project],
    ["local", paths.local],
  ];
  const fileLayers: ConfigLayerInput[] = [];
  const files: ConfigFile[] = [];
  for (const [layer, path] of candidates) {
    const input = await readConfigFile(path, layer);
    if (!input) continue;
    fileLayers.push(input);
    files.push({ layer, path });
  }
  const trust = await applyProjectTrust(fileLayers, { projectRoot, trustProject: options.trustProject });
  const layers = [...trust.layers, buildEnvLayer(env, lastProviderDefault(trust.layers))];
  if (options.flags) layers.push(buildFlagLayer(options.flags, options.flagNames));
  const merged = mergeConfigLayers(layers);
  if (trust.warning) merged.warnings.push(trust.warning);
  // Every credential in the config (`provider.<id>.api_key`, MCP tokens …) is hidden from output.
  forEachSecretValue(merged.config, registerSecret);
  const loaded: LoadedConfig = { ...merged, files, projectRoot, projectTrusted: trust.trusted };
  loadedWith.set(loaded, { ...options, env, projectRoot });
  return loaded;
}

/** What each config was loaded with (its flags included), for `reloadConfig`. */
const loadedWith = new WeakMap<LoadedConfig, LoadConfigOptions>();

/**
 * Loads `loaded`'s config again from its files, with the options it was loaded with (the same
 * project, environment and flags): a running session picks up what changed since (`/trust on`).
 * A config not made by `loadConfig` is reloaded from its project root and `env`.
 */
export function reloadConfig(loaded: LoadedConfig, env: Environment = process.env): Promise<LoadedConfig> {
  return loadConfig(loadedWith.get(loaded) ?? { projectRoot: loaded.projectRoot, env });
}
