import { budgetSchema, WITHOUT_ZOD_JIT } from "@nyzhi/config";
import type { BudgetSpec } from "../budgets/budget-types.js";

/**
 * A role's `budget` (agent file front matter, agents.json, config) as a spec; a malformed one is
 * dropped with a warning naming the key, and the role loads without it.
 */
export function roleBudget(value: unknown, warn: (problem: string) => void): BudgetSpec | undefined {
  if (value === undefined) return undefined;
  const parsed = budgetSchema.safeParse(value, WITHOUT_ZOD_JIT);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    warn(
      `budget${issue.path.length ? `.${issue.path.join(".")}` : ""} ignored (${issue.message}); use { usd, tokens, minutes, scope: "agent" | "subtree" }`,
    );
    return undefined;
  }
  const spec: BudgetSpec = {};
  for (const key of ["usd", "tokens", "minutes", "scope"] as const) {
    const field = parsed.data[key];
    if (field !== undefined) (spec as Record<string, unknown>)[key] = field;
  }
  return spec;
}

/** A role's `isolation` (`worktree` or `shared`; Claude Code's agent files say `isolation: worktree`). */
export function roleIsolation(
  value: unknown,
  warn: (problem: string) => void,
): "shared" | "worktree" | undefined {
  if (value === undefined) return undefined;
  if (value === "worktree" || value === "shared") return value;
  warn(`isolation ${JSON.stringify(value)} ignored; use "worktree" or "shared"`);
  return undefined;
}
