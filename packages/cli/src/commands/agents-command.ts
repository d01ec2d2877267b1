import { resolveDirs } from "@nyzhi/config";
import { describeRoleSource, RoleCatalog, type RoleDefinition, type RoleSource } from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { loadCliConfig } from "./load-cli-config.js";

/** Where a role comes from, for `nyz agents`: kind, scope (global or project) and file. */
function sourceView(source: RoleSource): { kind: string; scope?: string; path?: string; label: string } {
  const label = describeRoleSource(source);
  switch (source.kind) {
    case "built-in":
    case "fallback":
      return { kind: source.kind, label };
    case "config":
      return {
        kind: "config",
        ...(source.scope && { scope: source.scope }),
        ...(source.path && { path: source.path }),
        label,
      };
    case "file":
      return {
        kind: "file",
        scope: source.scope,
        path: source.path,
        label: `file (${source.scope}) ${source.path}`,
      };
    case "agents-json":
      return {
        kind: "agents.json",
        scope: source.scope,
        path: source.path,
        label: `agents.json (${source.scope}) ${source.path}`,
      };
  }
}

function roleView(role: RoleDefinition) {
  return {
    name: role.name,
    description: role.description,
    enabled: role.enabled,
    readOnly: role.readOnly,
    ...(role.model !== undefined && { model: role.model }),
    ...(role.allowedTools !== undefined && { tools: role.allowedTools }),
    source: sourceView(role.source),
    ...(role.disabledBy && { disabledBy: sourceView(role.disabledBy).label }),
    overrides: (role.overrides ?? []).map((source) => sourceView(source).label),
  };
}

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
  const roles = catalog.list().map(roleView);
  if (options.json) {
    io.stdout(`${JSON.stringify({ subagentsEnabled, roles }, null, 2)}\n`);
    return ExitCode.success;
  }
  if (!subagentsEnabled)
    io.stdout("Subagents are disabled (agent.agents.enabled = false): no role can be spawned.\n\n");
  const width = Math.max(...roles.map((role) => role.name.length));
  for (const role of roles) {
    const state = role.enabled ? "enabled " : "disabled";
    const notes = [
      role.readOnly && "read-only",
      role.disabledBy && `disabled by ${role.disabledBy}`,
      role.overrides.length > 0 && `overrides ${role.overrides.join(", ")}`,
    ].filter(Boolean);
    io.stdout(
      `${role.name.padEnd(width)}  ${state}  ${role.source.label}${notes.length > 0 ? ` [${notes.join("; ")}]` : ""}\n${" ".repeat(width + 2)}${role.description}\n`,
    );
  }
  return ExitCode.success;
}
