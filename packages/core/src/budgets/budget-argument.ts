import { z } from "zod";
import type { BudgetSpec } from "./budget-types.js";

/**
 * The `budget` argument of `spawn_agent` and `task`. Built on first use (inside the tools'
 * `z.lazy`), like every shipped tool's schema.
 */
export function budgetArgument() {
  return z
    .object({
      usd: z.number().positive().optional().describe("US dollars."),
      tokens: z.int().min(1).optional().describe("Input + output tokens."),
      minutes: z.number().positive().optional().describe("Wall-clock minutes."),
      scope: z.enum(["agent", "subtree"]).optional().describe("`subtree`: its subagents count too."),
    })
    .optional()
    .describe(
      "Spending cap (at most what you have left): warned at 80%, stopped at 100% with its partial answer.",
    );
}

/** The `isolation` argument of `spawn_agent` and `task`. */
export function isolationArgument() {
  return z
    .enum(["shared", "worktree"])
    .optional()
    .describe(
      "`worktree`: its own git worktree and branch from your current state; changes reach your tree only via merge_agent_changes.",
    );
}

/** A parsed `budget` argument as a spec (dropping absent keys). */
export function budgetSpecOf(input: z.infer<ReturnType<typeof budgetArgument>>): BudgetSpec | undefined {
  if (!input) return undefined;
  const spec: BudgetSpec = {};
  if (input.usd !== undefined) spec.usd = input.usd;
  if (input.tokens !== undefined) spec.tokens = input.tokens;
  if (input.minutes !== undefined) spec.minutes = input.minutes;
  if (input.scope !== undefined) spec.scope = input.scope;
  return spec;
}
