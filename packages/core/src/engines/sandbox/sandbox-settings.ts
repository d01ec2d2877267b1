import { SandboxError } from "./sandbox-error.js";
import { SANDBOX_LEVELS, type SandboxLevel } from "./sandbox-level.js";

/**
 * How commands (`bash`, `verify`) are confined for one agent. The runtime puts it in
 * `context.services.sandbox`; tools fall back to workspace-write on the project root (`context.projectRoot`,
 * else `context.cwd`), network off.
 */
export interface SandboxSettings {
  level: SandboxLevel;
  /** Workspace roots; empty means the context's project root (else its `cwd`). */
  roots: readonly string[];
  /** Network access for commands (config `shell.sandbox.allow_network` non-empty). */
  allowNetwork: boolean;
  /** `agent.trust.deny_paths`: existing matches are hidden inside bubblewrap. */
  denyPaths?: readonly string[];
  /** Hook and MCP server scripts (absolute): read-only inside bubblewrap, like `.nyzhi/`. */
  controlFiles?: readonly string[];
  /** `shell.sandbox.allow_write` (absolute): writable under workspace-write besides the roots. */
  allowWrite?: readonly string[];
  /** What `shell.sandbox.block_dotfiles` hides (absolute; see blockedDotfiles): masked inside bubblewrap. */
  blockedPaths?: readonly string[];
  /** `shell.sandbox.allow_read` and `allow_write` (absolute): bound back inside a masked blocked directory. */
  allowRead?: readonly string[];
}

export const SANDBOX_SERVICE = "sandbox";

/**
 * The agent's sandbox settings from `context.services.sandbox`, or the safe default when absent.
 * A malformed value throws rather than silently widening or narrowing what commands may do.
 */
export function sandboxSettingsOf(context: {
  cwd: string;
  projectRoot?: string;
  services: Readonly<Record<string, unknown>>;
}): SandboxSettings {
  const value = context.services[SANDBOX_SERVICE];
  const root = context.projectRoot ?? context.cwd;
  if (isSandboxSettings(value)) {
    return value.roots.length > 0 ? value : { ...value, roots: [root] };
  }
  if (value !== undefined) {
    throw new SandboxError("context.services.sandbox must be { level, roots, allowNetwork }.");
  }
  return { level: "workspace-write", roots: [root], allowNetwork: false };
}

function isSandboxSettings(value: unknown): value is SandboxSettings {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<SandboxSettings>;
  return (
    typeof candidate.level === "string" &&
    (SANDBOX_LEVELS as readonly string[]).includes(candidate.level) &&
    Array.isArray(candidate.roots) &&
    typeof candidate.allowNetwork === "boolean"
  );
}
