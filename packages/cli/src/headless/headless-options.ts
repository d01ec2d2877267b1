import {
  NyzhiError,
  normalizeSandboxLevel,
  normalizeTrustMode,
  SANDBOX_LEVELS,
  type SandboxLevel,
  TRUST_MODES,
  type TrustMode,
} from "@nyzhi/config";

/** Flags shared by `nyz run` and `nyz exec`. */
export interface HeadlessFlags {
  json?: boolean;
  quiet?: boolean;
  output?: string;
  ephemeral?: boolean;
  fullAuto?: boolean;
  full_auto?: boolean;
  sandbox?: string;
  maxSteps?: string;
  /** The run's cap in US dollars (`--max-budget-usd`), over config `agent.budget.usd`. */
  maxBudgetUsd?: string;
  continue?: boolean;
  session?: string;
  image?: string[];
  subagentModel?: string[];
  /** Lead this team (`--team-name`): read its inbox every step and follow its teammates. */
  teamName?: string;
  /** How long to follow working teammates after the lead's turn (`--team-wait-ms`). */
  teamWaitMs?: string;
  /** Auto-context from the code index for this run (`--auto-context`). */
  autoContext?: boolean;
  /** Plan mode for this run (`--plan`): read-only tools, a plan as the answer. */
  plan?: boolean;
}

/** A command-line value the user must fix; exits 2. */
export class UsageError extends NyzhiError {
  constructor(message: string) {
    super("usage", message);
  }
}

export function parseTrustFlag(value: string | undefined): TrustMode | undefined {
  if (value === undefined) return undefined;
  const normalized = normalizeTrustMode(value);
  if (typeof normalized === "string" && (TRUST_MODES as readonly string[]).includes(normalized)) {
    return normalized as TrustMode;
  }
  throw new UsageError(`Invalid --trust value: ${value} (use off, limited, autoedit, or full)`);
}

export function parseSandboxFlag(value: string | undefined): SandboxLevel | undefined {
  if (value === undefined) return undefined;
  const normalized = normalizeSandboxLevel(value);
  if (typeof normalized === "string" && (SANDBOX_LEVELS as readonly string[]).includes(normalized)) {
    return normalized as SandboxLevel;
  }
  throw new UsageError(
    `Unknown sandbox level: ${value} (use read-only, workspace-write or full-access; aliases readonly, workspace, full)`,
  );
}

export function parseMaxSteps(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const steps = Number(value);
  if (!Number.isInteger(steps) || steps < 1)
    throw new UsageError(`--max-steps must be a positive whole number, got '${value}'`);
  return steps;
}

export function parseMaxBudgetUsd(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const usd = Number(value);
  if (!Number.isFinite(usd) || usd <= 0)
    throw new UsageError(
      `--max-budget-usd must be a positive number of US dollars (e.g. 0.50), got '${value}'`,
    );
  return usd;
}

/** Default for `--team-wait-ms`: how long a headless lead follows its teammates, ms. */
export const DEFAULT_TEAM_WAIT_MS = 120_000;

export function parseTeamWaitMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TEAM_WAIT_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0)
    throw new UsageError(`--team-wait-ms must be a whole number of milliseconds, got '${value}'`);
  return ms;
}
