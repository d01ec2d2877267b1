import { compareText } from "@nyzhi/config";
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
  return roleLines(roles.filter((role) => role.enabled));
}

/** One line per role, for the subagent tools' descriptions. */
export interface RoleSummary {
  name: string;
  description: string;
}

let lastRoles: readonly RoleSummary[] | undefined;
let lastLines = "";

/**
 * `` - `name`: description `` per role, sorted by name. Tool descriptions are read for every model
 * request; given the same frozen array again (RoleCatalog.enabled() keeps one until the catalog
 * changes) this returns the lines it built last time instead of sorting and joining them again.
 * An array that can still change is read every time.
 */
export function roleLines(roles: readonly RoleSummary[]): string {
  if (roles === lastRoles && Object.isFrozen(roles)) return lastLines;
  lastLines = [...roles]
    .sort((left, right) => compareText(left.name, right.name))
    .map((role) => `- \`${role.name}\`: ${role.description}`)
    .join("\n");
  lastRoles = roles;
  return lastLines;
}
