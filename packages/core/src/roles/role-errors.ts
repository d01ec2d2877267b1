import { NyzhiError } from "@nyzhi/config";
import type { RoleSource } from "./role-definition.js";

/**
 * A problem found while loading roles. Loading never throws: a broken definition is skipped (or a
 * bad part of it ignored) and reported here. `message` is a whole sentence naming the file or
 * config key, ready to show.
 */
export interface RoleWarning {
  /** The agent file, when the problem is in one. */
  path?: string;
  /** The role, when known. */
  role?: string;
  message: string;
}

/** `spawn_agent` asked for a role whose definition says `enabled = false`. */
export class RoleDisabledError extends NyzhiError {
  readonly role: string;
  readonly source: RoleSource;

  constructor(role: string, source: RoleSource, where: string) {
    super(
      "role_disabled",
      `Role '${role}' is disabled (enabled = false in ${where}). Enable it there or use another role.`,
    );
    this.role = role;
    this.source = source;
  }
}
