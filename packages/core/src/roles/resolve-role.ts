import { GENERIC_SUBAGENT_PROMPT } from "./built-in/default-role.js";
import type { RoleCatalog } from "./role-catalog.js";
import { DEFAULT_ROLE_NAME, describeRoleSource, type RoleDefinition } from "./role-definition.js";
import { RoleDisabledError } from "./role-errors.js";

export interface ResolvedRole {
  role: RoleDefinition;
  /**
   * True when no definition has the requested name: the role is a synthesized fallback that
   * behaves like `default`, and the spawn result and events should say the name was unknown.
   */
  unknown: boolean;
}

/**
 * Finds the role a spawn asked for: user-defined (agent files, agents.json, config) → built-in →
 * fallback. A missing or blank name means `default`. A disabled role throws `RoleDisabledError`
 * rather than silently falling back, so the parent model learns to pick another.
 */
export function resolveRole(name: string | undefined, catalog: RoleCatalog): ResolvedRole {
  const requested = name?.trim() || DEFAULT_ROLE_NAME;
  const role = catalog.get(requested);
  if (role) {
    if (!role.enabled) {
      const where = role.disabledBy ?? role.source;
      throw new RoleDisabledError(role.name, where, describeRoleSource(where));
    }
    return { role, unknown: false };
  }
  return { role: fallbackRole(requested), unknown: true };
}

/** A role nobody defined: the generic prompt, every tool, default caps. */
export function fallbackRole(name: string): RoleDefinition {
  return {
    name,
    description: "Unknown role; behaves like the default role.",
    systemPrompt: GENERIC_SUBAGENT_PROMPT,
    readOnly: false,
    enabled: true,
    source: { kind: "fallback" },
  };
}
