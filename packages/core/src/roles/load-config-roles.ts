import type { ConfigOrigins, NyzhiConfig, RoleConfig } from "@nyzhi/config";
import type { LoadedRoles } from "./load-file-roles.js";
import { normalizeToolNames } from "./normalize-tool-names.js";
import type { RoleDefinition, RoleSource } from "./role-definition.js";
import type { RoleWarning } from "./role-errors.js";

const LAYER_RANK = ["global", "project", "local", "env", "flag"] as const;

/**
 * Turns `[agent.agents.roles.<name>]` into role definitions. The config is already validated, so
 * only what the schema cannot know is reported: unknown tool names, `max_steps = 0`.
 * `origins` (from `loadConfig`) adds the scope and file each role came from.
 * `config_file` is kept by the schema but not read here.
 */
export function loadConfigRoles(config: NyzhiConfig, options: { origins?: ConfigOrigins } = {}): LoadedRoles {
  const roles: RoleDefinition[] = [];
  const warnings: RoleWarning[] = [];
  for (const [name, entry] of Object.entries(config.agent.agents.roles)) {
    const key = `agent.agents.roles.${name}`;
    const warn = (problem: string) =>
      warnings.push({ role: name, message: `Config role [${key}]: ${problem}` });
    roles.push(configRole(name, entry, configSource(key, options.origins), warn));
  }
  return { roles, warnings };
}

function configRole(
  name: string,
  entry: RoleConfig,
  source: RoleSource,
  warn: (problem: string) => void,
): RoleDefinition {
  const tools = (key: string, list: readonly string[] | undefined) => {
    if (list === undefined) return undefined;
    const normalized = normalizeToolNames(list, key);
    for (const problem of normalized.problems) warn(problem);
    return normalized.names;
  };
  const allowedTools = tools("allowed_tools", entry.allowed_tools);
  const disallowedTools = tools("disallowed_tools", entry.disallowed_tools);
  if (entry.max_steps === 0) warn("max_steps = 0 ignored (a role needs at least one step)");
  const prompt = entry.system_prompt?.trim();
  return {
    name,
    description: entry.description?.trim() || "Role defined in config",
    readOnly: entry.read_only ?? false,
    enabled: entry.enabled,
    source,
    ...(prompt && { systemPrompt: prompt }),
    ...(entry.model !== undefined && entry.model !== "inherit" && { model: entry.model }),
    ...(entry.max_steps !== undefined && entry.max_steps > 0 && { maxSteps: entry.max_steps }),
    ...(allowedTools !== undefined && { allowedTools }),
    ...(disallowedTools !== undefined && { disallowedTools }),
    ...(entry.mcp_servers !== undefined && { mcpServers: entry.mcp_servers }),
  };
}

/** The highest config layer that set any key of the role, with its file. */
function configSource(key: string, origins: ConfigOrigins | undefined): RoleSource {
  let best: { rank: number; scope: (typeof LAYER_RANK)[number]; path: string } | undefined;
  for (const [path, origin] of Object.entries(origins ?? {})) {
    if (!path.startsWith(`${key}.`) || origin.layer === "default") continue;
    const rank = LAYER_RANK.indexOf(origin.layer);
    if (!best || rank > best.rank) best = { rank, scope: origin.layer, path: origin.source };
  }
  if (!best) return { kind: "config" };
  const fromFile = best.scope !== "env" && best.scope !== "flag";
  return { kind: "config", scope: best.scope, ...(fromFile && { path: best.path }) };
}
