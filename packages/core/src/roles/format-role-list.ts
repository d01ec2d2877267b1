import { describeRoleSource, type RoleDefinition } from "./role-definition.js";

/**
 * One line per role for `nyz agents` and `/agents`: name, flags, where it comes from and what it
 * shadows, then the description. Example:
 * `explorer [read-only] — config (project), overrides built-in — Fast read-only codebase search`.
 */
export function formatRoleList(roles: readonly RoleDefinition[]): string {
  return roles
    .map((role) => {
      const flags = [!role.enabled && "disabled", role.readOnly && "read-only"].filter(Boolean);
      const overrides = role.overrides?.length
        ? `, overrides ${role.overrides.map(describeRoleSource).join(", ")}`
        : "";
      const flagText = flags.length > 0 ? ` [${flags.join(", ")}]` : "";
      return `${role.name}${flagText} — ${describeRoleSource(role.source)}${overrides} — ${role.description}`;
    })
    .join("\n");
}

/** The role list in `spawn_agent`'s `agent_type` description: `` - `name`: description `` per enabled role. */
export function describeRolesForSpawn(roles: readonly RoleDefinition[]): string {
  return roles
    .filter((role) => role.enabled)
    .map((role) => `- \`${role.name}\`: ${role.description}`)
    .join("\n");
}
