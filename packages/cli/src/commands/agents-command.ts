import { resolveDirs } from "@nyzhi/config";
import { formatRoleCatalog, RoleCatalog, roleView } from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

/**
 * `nyz agents [--json]`: every subagent role this project can use — built-in, config, agent files,
 * agents.json (global or project) — with its source, whether it is enabled and what it overrides.
 */
export async function agentsCommand(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean },
): Promise<number> {
  const loaded = await loadCliConfig(io, flags);
  const catalog = await RoleCatalog.load({
    config: loaded.config,
    origins: loaded.origins,
    projectRoot: loaded.projectRoot,
    globalConfigDir: resolveDirs(io.env).config,
  });
  for (const warning of catalog.warnings) io.stderr(`warning: ${warning.message}\n`);
  const subagentsEnabled = loaded.config.agent.agents.enabled;
  if (options.json) {
    const roles = catalog.list().map(roleView);
    io.stdout(`${JSON.stringify({ subagentsEnabled, roles }, null, 2)}\n`);
    return ExitCode.success;
  }
  io.stdout(formatRoleCatalog(catalog.list(), { subagentsEnabled }));
  return ExitCode.success;
}
