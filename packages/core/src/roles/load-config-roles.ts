import type { ConfigOrigins, NyzhiConfig, RoleConfig } from "@nyzhi/config";
import { BUILT_IN_ROLES } from "./built-in/built-in-roles.js";
import type { LoadedRoles } from "./load-file-roles.js";
import { normalizeToolNames } from "./normalize-tool-names.js";
import type { RoleDefinition, RoleSource } from "./role-definition.js";
import type { RoleWarning } from "./role-errors.js";
import { roleBudget } from "./role-run-settings.js";

const LAYER_RANK = ["global", "project", "local", "env", "flag"] as const;

export interface LoadConfigRolesOptions {
  /** `loadConfig`'s origins: add the scope and file each role came from. */
  origins?: ConfigOrigins | undefined;
  /** Roles a config entry of the same name patches. Default: the built-ins. */
  base?: readonly RoleDefinition[] | undefined;
}

/**
 * Turns `[agent.agents.roles.<name>]` into role definitions. An entry named like a built-in
 * patches it: keys it leaves out keep the built-in's values, so `[agent.agents.roles.explorer]
 * model = "haiku"` changes the model and nothing else (explorer stays read-only with its prompt).
 * Any other entry is a whole role. The config is already validated, so only what the schema
 * cannot know is reported: unknown tool names, `max_steps = 0`. `config_file` is not read.
 */
export function loadConfigRoles(config: NyzhiConfig, options: LoadConfigRolesOptions = {}): LoadedRoles {
  const roles: RoleDefinition[] = [];
  const warnings: RoleWarning[] = [];
  const base = options.base ?? BUILT_IN_ROLES;
  for (const [name, entry] of Object.entries(config.agent.agents.roles)) {
    const key = `agent.agents.roles.${name}`;
    const warn = (problem: string) =>
      warnings.push({ role: name, message: `Config role [${key}]: ${problem}` });
    const inherited = base.find((role) => role.name === name);
    roles.push(configRole({ name, entry, inherited, source: configSource(key, options.origins), warn }));
  }
  return { roles, warnings };
}

function configRole(input: {
  name: string;
  entry: RoleConfig;
  inherited: RoleDefinition | undefined;
  source: RoleSource;
  warn: (problem: string) => void;
}): RoleDefinition {
  const { name, entry, inherited, source, warn } = input;
  const tools = (key: string, list: readonly string[] | undefined) => {
    if (list === undefined) return undefined;
    const normalized = normalizeToolNames(list, key);
    for (const problem of normalized.problems) warn(problem);
    return normalized.names;
  };
  const allowedTools = tools("allowed_tools", entry.allowed_tools) ?? inherited?.allowedTools;
  const disallowedTools = tools("disallowed_tools", entry.disallowed_tools) ?? inherited?.disallowedTools;
  if (entry.max_steps === 0) warn("max_steps = 0 ignored (a role needs at least one step)");
  const maxSteps =
    entry.max_steps !== undefined && entry.max_steps > 0 ? entry.max_steps : inherited?.maxSteps;
  const systemPrompt = entry.system_prompt?.trim() || inherited?.systemPrompt;
  const model = entry.model === "inherit" ? undefined : (entry.model ?? inherited?.model);
  const mcpServers = entry.mcp_servers ?? inherited?.mcpServers;
  const autoContext = entry.auto_context ?? inherited?.autoContext;
  const budget = roleBudget(entry.budget, warn) ?? inherited?.budget;
  const isolation = entry.isolation ?? inherited?.isolation;
  return {
    name,
    description: entry.description?.trim() || inherited?.description || "Role defined in config",
    readOnly: entry.read_only ?? inherited?.readOnly ?? false,
    enabled: entry.enabled ?? true,
    source,
    ...(systemPrompt !== undefined && { systemPrompt }),
    ...(model !== undefined && { model }),
    ...(maxSteps !== undefined && { maxSteps }),
    ...(allowedTools !== undefined && { allowedTools }),
    ...(disallowedTools !== undefined && { disallowedTools }),
    ...(mcpServers !== undefined && { mcpServers }),
    ...(autoContext !== undefined && { autoContext }),
    ...(budget !== undefined && { budget }),
    ...(isolation !== undefined && { isolation }),
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
