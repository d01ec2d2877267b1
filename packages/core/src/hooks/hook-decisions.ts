import type { HookResult } from "./hook-types.js";

/** Cap on a reason passed on to the model or the user, in characters. */
export const MAX_HOOK_REASON_CHARS = 4_000;

/** The exit code that always means "no" (block, deny, keep working), as in Claude Code. */
export const HOOK_BLOCK_EXIT_CODE = 2;

/** A decision a hook printed as JSON on stdout (Claude Code style). */
export interface HookJsonDecision {
  decision?: "block" | "allow" | "deny";
  reason?: string;
}

/**
 * Reads `{"decision": "block" | "deny" | "allow" | "approve", "reason": "…"}` from stdout, also
 * Claude Code's `hookSpecificOutput.permissionDecision` / `.decision.behavior` forms. Anything
 * else (plain text, other JSON) is no decision.
 */
export function parseHookJsonDecision(stdout: string): HookJsonDecision | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const specific = isRecord(value.hookSpecificOutput) ? value.hookSpecificOutput : {};
  const nested = isRecord(specific.decision) ? specific.decision : {};
  const raw = value.decision ?? specific.permissionDecision ?? nested.behavior;
  const reason = value.reason ?? specific.permissionDecisionReason ?? nested.message;
  const decision = normaliseDecision(raw);
  if (!decision) return undefined;
  const parsed: HookJsonDecision = { decision };
  if (typeof reason === "string" && reason.trim() !== "") parsed.reason = reason.trim();
  return parsed;
}

/**
 * Why this hook blocks, or undefined when it does not. A hook blocks when it exits with code 2,
 * prints a JSON `block`/`deny` decision, or has `block = true` and did not succeed (non-zero,
 * timed out, killed). Only the hook's own result counts, never another hook's.
 */
export function blockReasonOf(result: HookResult): string | undefined {
  const json = parseHookJsonDecision(result.stdout);
  if (json?.decision === "block" || json?.decision === "deny") {
    return json.reason ?? reasonText(result.stderr) ?? defaultReason(result);
  }
  if (result.exitCode === HOOK_BLOCK_EXIT_CODE) return reasonFromOutput(result);
  if (result.hook.block && result.status !== "ok") return reasonFromOutput(result);
  return undefined;
}

/** The first blocking hook's reason among results run in config order. */
export function firstBlockReason(results: readonly HookResult[]): string | undefined {
  for (const result of results) {
    const reason = blockReasonOf(result);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

export interface PermissionHookAnswer {
  decision: "allow" | "deny";
  reason: string;
}

/**
 * The first answer among `permission_request` hooks: a JSON `allow`/`deny`, or a block (exit 2,
 * `block = true` failure) as `deny`. No answer leaves the question to the user.
 */
export function permissionAnswerOf(results: readonly HookResult[]): PermissionHookAnswer | undefined {
  for (const result of results) {
    const json = parseHookJsonDecision(result.stdout);
    if (json?.decision === "allow") {
      return { decision: "allow", reason: json.reason ?? `allowed by hook ${labelOf(result)}` };
    }
    const blocked = blockReasonOf(result);
    if (blocked !== undefined) return { decision: "deny", reason: blocked };
  }
  return undefined;
}

/**
 * For `teammate_idle` / `task_completed`: the stderr of the first hook that exited with code 2
 * ("keep working" / "reject the completion", with what to do instead), else undefined.
 */
export function exitCode2Feedback(results: readonly HookResult[]): string | undefined {
  const result = results.find((candidate) => candidate.exitCode === HOOK_BLOCK_EXIT_CODE);
  if (!result) return undefined;
  return reasonText(result.stderr) ?? reasonText(result.stdout) ?? "";
}

function reasonFromOutput(result: HookResult): string {
  return reasonText(result.stderr) ?? reasonText(result.stdout) ?? defaultReason(result);
}

function reasonText(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return trimmed.length > MAX_HOOK_REASON_CHARS ? `${trimmed.slice(0, MAX_HOOK_REASON_CHARS)}…` : trimmed;
}

function defaultReason(result: HookResult): string {
  return `blocked by hook ${labelOf(result)}`;
}

function labelOf(result: HookResult): string {
  return result.command || `${result.hook.hook_type} hook`;
}

function normaliseDecision(raw: unknown): HookJsonDecision["decision"] {
  if (typeof raw !== "string") return undefined;
  switch (raw.toLowerCase()) {
    case "block":
      return "block";
    case "deny":
      return "deny";
    case "allow":
    case "approve":
      return "allow";
    default:
      return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
