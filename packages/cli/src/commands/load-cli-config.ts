import { type ConfigWarning, getLogger, type LoadedConfig, loadConfig } from "@nyzhi/config";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";

/** The config keys global flags set, with the flag's name for origins. */
export function flagLayer(flags: GlobalFlags): {
  flags: Record<string, unknown>;
  flagNames: Record<string, string>;
} {
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (flags.provider) {
    values["provider.default"] = flags.provider;
    names["provider.default"] = "--provider";
  }
  if (flags.trust) {
    values["agent.trust.mode"] = flags.trust;
    names["agent.trust.mode"] = "--trust";
  }
  return { flags: values, flagNames: names };
}

/**
 * Loads the merged config for a command, with global flags as the top layer; prints warnings to
 * stderr, except those of the kinds in `shownElsewhere` (the app shows the untrusted folder's
 * notice itself, with how to trust it from there).
 */
export async function loadCliConfig(
  io: CommandIo,
  flags: GlobalFlags,
  options: { shownElsewhere?: readonly ConfigWarning["kind"][] } = {},
): Promise<LoadedConfig> {
  const loaded = await loadConfig({
    cwd: io.cwd,
    env: io.env,
    ...flagLayer(flags),
    trustProject: flags.trustProject === true,
  });
  for (const warning of loaded.warnings)
    if (!options.shownElsewhere?.includes(warning.kind)) io.stderr(`${warning.message}\n`);
  getLogger(io.env).debug({ files: loaded.files, projectRoot: loaded.projectRoot }, "config loaded");
  return loaded;
}
