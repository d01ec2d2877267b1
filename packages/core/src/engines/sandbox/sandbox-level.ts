import { SandboxError } from "./sandbox-error.js";

/**
 * What mutating tools may touch. `read-only`: nothing is written; `workspace-write`: only the
 * workspace roots (and, for `bash` under bubblewrap, a private temp directory); `full-access`:
 * anything the user running nyzhi may write.
 */
export const SANDBOX_LEVELS = ["read-only", "workspace-write", "full-access"] as const;
export type SandboxLevel = (typeof SANDBOX_LEVELS)[number];

const SANDBOX_ALIASES: Readonly<Record<string, SandboxLevel>> = {
  readonly: "read-only",
  workspace: "workspace-write",
  full: "full-access",
  "danger-full-access": "full-access",
};

/** Parses a level or one of its aliases (any case); throws a SandboxError listing the valid spellings. */
export function parseSandboxLevel(value: string): SandboxLevel {
  const lower = value.trim().toLowerCase();
  if ((SANDBOX_LEVELS as readonly string[]).includes(lower)) return lower as SandboxLevel;
  const alias = SANDBOX_ALIASES[lower];
  if (alias) return alias;
  const accepted = [...SANDBOX_LEVELS, ...Object.keys(SANDBOX_ALIASES)].join(", ");
  throw new SandboxError(`Unknown sandbox level "${value}". Use one of: ${accepted}.`);
}
