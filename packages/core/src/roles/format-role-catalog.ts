import { describeRoleSource, type RoleDefinition, type RoleSource } from "./role-definition.js";

/** Where a role comes from, as `nyz agents --json` reports it: kind, scope (global or project), file. */
export interface RoleSourceView {
  kind: string;
  scope?: string;
  path?: string;
  /** One line for people: `file (project) .nyzhi/agents/helper.md`. */
  label: string;
}

/** One role as `nyz agents --json` reports it. */
export interface RoleView {
  name: string;
  description: string;
  enabled: boolean;
  readOnly: boolean;
  model?: string;
  tools?: readonly string[];
  source: RoleSourceView;
  disabledBy?: string;
  overrides: string[];
}

export function roleSourceView(source: RoleSource): RoleSourceView {
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

export function roleView(role: RoleDefinition): RoleView {
  return {
    name: role.name,
    description: role.description,
    enabled: role.enabled,
    readOnly: role.readOnly,
    ...(role.model !== undefined && { model: role.model }),
    ...(role.allowedTools !== undefined && { tools: role.allowedTools }),
    source: roleSourceView(role.source),
    ...(role.disabledBy && { disabledBy: roleSourceView(role.disabledBy).label }),
    overrides: (role.overrides ?? []).map((source) => roleSourceView(source).label),
  };
}

/**
 * Every role with its source, as `nyz agents` prints it and `/agents` shows it: per role a line
 * with name, enabled state, source and notes (read-only, disabled by, overrides), then its
 * description indented. Led by a note when subagents are disabled. Ends with a newline.
 */
export function formatRoleCatalog(
  roles: readonly RoleDefinition[],
  options: { subagentsEnabled: boolean },
): string {
  const views = roles.map(roleView);
  const lines: string[] = [];
  if (!options.subagentsEnabled)
    lines.push("Subagents are disabled (agent.agents.enabled = false): no role can be spawned.\n\n");
  const width = Math.max(0, ...views.map((role) => role.name.length));
  for (const role of views) {
    const state = role.enabled ? "enabled " : "disabled";
    const notes = [
      role.readOnly && "read-only",
      role.disabledBy && `disabled by ${role.disabledBy}`,
      role.overrides.length > 0 && `overrides ${role.overrides.join(", ")}`,
    ].filter(Boolean);
    lines.push(
      `${role.name.padEnd(width)}  ${state}  ${role.source.label}${notes.length > 0 ? ` [${notes.join("; ")}]` : ""}\n${" ".repeat(width + 2)}${role.description}\n`,
    );
  }
  return lines.join("");
}
