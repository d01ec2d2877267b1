import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  configFilePaths,
  configToToml,
  describeOrigins,
  findProjectRoot,
  getConfigValue,
  NyzhiError,
  redactSecrets,
  setConfigValue,
} from "@nyzhi/config";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

/** `nyz config`: the merged config as TOML (secrets masked), as JSON, or with origins. */
export async function showConfig(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean; origin?: boolean },
): Promise<number> {
  const loaded = await loadCliConfig(io, flags);
  if (options.origin) {
    for (const line of describeOrigins(loaded.origins)) io.stdout(`${line}\n`);
  } else if (options.json) {
    io.stdout(`${JSON.stringify(redactSecrets(loaded.config), null, 2)}\n`);
  } else {
    const files = loaded.files.map((file) => `# ${file.layer}: ${file.path}`);
    io.stdout(`${files.length > 0 ? `${files.join("\n")}\n\n` : "# no config files; built-in defaults\n\n"}`);
    io.stdout(configToToml(loaded.config));
  }
  return ExitCode.success;
}

/** `nyz config get KEY`. */
export async function getConfig(
  io: CommandIo,
  flags: GlobalFlags,
  key: string,
  options: { origin?: boolean },
): Promise<number> {
  const loaded = await loadCliConfig(io, flags);
  const value = getConfigValue(loaded.config, key);
  if (value === undefined) {
    io.stderr(`Error: ${key} is not set and has no default (see \`nyz config\` for every key)\n`);
    return ExitCode.failure;
  }
  io.stdout(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  if (options.origin) {
    const origin = loaded.origins[key];
    io.stdout(
      `# from ${origin ? `${origin.layer}${origin.source ? ` ${origin.source}` : ""}` : "default"}\n`,
    );
  }
  return ExitCode.success;
}

/** `nyz config set KEY VALUE [--global|--project]`. */
export async function setConfig(
  io: CommandIo,
  key: string,
  value: string,
  options: { global?: boolean; project?: boolean },
): Promise<number> {
  if (options.global && options.project) {
    throw new NyzhiError("usage", "choose one of --global and --project");
  }
  const root = findProjectRoot(io.cwd);
  const paths = configFilePaths(root, io.env);
  const useProject = options.project || (!options.global && existsSync(join(root, ".nyzhi")));
  const file = useProject ? paths.project : paths.global;
  const result = await setConfigValue(file, key, value);
  io.stderr(`Set ${key} in ${file}\n`);
  if (result.warning) io.stderr(`${result.warning}\n`);
  return ExitCode.success;
}
