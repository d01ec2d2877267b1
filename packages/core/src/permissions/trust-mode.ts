import { NyzhiError, normalizeTrustMode, TRUST_MODES, type TrustMode } from "@nyzhi/config";

/**
 * How much the agent may do without asking (the modes and their spellings live in
 * `@nyzhi/config`). `off`: ask before every change; `limited`: ask unless the tool is listed in
 * `allow_tools`; `autoedit`: file edits inside the workspace go through, commands and network
 * ask; `full`: nothing asks. Deny rules hold in every mode.
 */
export { TRUST_MODES, type TrustMode };

/** `[agent.trust]` as the config loads it (snake_case keys, like the TOML). */
export interface TrustSettings {
  mode: TrustMode;
  /** Tool patterns auto-approved in `limited` and `autoedit` (within allow_paths and the workspace). */
  allow_tools: string[];
  /** Path patterns that auto-approval is limited to; empty means the workspace roots. */
  allow_paths: string[];
  /** Tool patterns that are never run, by any agent, in any mode. */
  deny_tools: string[];
  /** Path patterns no tool may read or write, in any mode. */
  deny_paths: string[];
  /** Tool patterns approved without asking in every mode (deny rules still win). */
  auto_approve: string[];
  /** Tool patterns that always ask, even in `full` and even after "allow always". */
  always_ask: string[];
  /** Keep "allow always" answers for later sessions (not read yet: they last for their session). */
  remember_approvals: boolean;
}

export const DEFAULT_TRUST_SETTINGS: Readonly<TrustSettings> = {
  mode: "off",
  allow_tools: [],
  allow_paths: [],
  deny_tools: [],
  deny_paths: [],
  auto_approve: [],
  always_ask: [],
  remember_approvals: false,
};

/** Parses a mode or an alias (`auto_edit`, `auto-edit`; any case); throws listing the valid ones. */
export function parseTrustMode(value: string): TrustMode {
  const normalized = normalizeTrustMode(value.trim());
  if (typeof normalized === "string" && (TRUST_MODES as readonly string[]).includes(normalized)) {
    return normalized as TrustMode;
  }
  throw new NyzhiError(
    "invalid_trust_mode",
    `Unknown trust mode "${value}". Use one of: ${TRUST_MODES.join(", ")}.`,
  );
}

/** Order from least to most trust, for intersecting a parent's and a child's modes. */
export function trustRank(mode: TrustMode): number {
  return TRUST_MODES.indexOf(mode);
}
