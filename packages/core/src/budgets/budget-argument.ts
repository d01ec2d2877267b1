import { z } from "zod";
import type { BudgetSpec } from "./budget-types.js";

/**
 * The `budget` argument of `spawn_agent` and `task`. Built on first use (inside the tools'
 * `z.lazy`), like every shipped tool's schema.
 */
export function budgetArgument() {
  return z
    .object({
      usd: z.number().positive().optional().describe("US dollars the agent may spend."),
      tokens: z.int().min(1).optional().describe("Tokens (input + output) the agent may use."),
      minutes: z.number().positive().optional().describe("Wall-clock minutes the agent may run."),
      scope: z
        .enum(["agent", "subtree"])
        .optional()
        .describe("`agent` (default): its own spending; `subtree`: its own and its subagents'."),
    })
    .optional()
    .describe(
      "Cap on what the agent may spend (never more than what is left of yours). At 80% it is told to wrap up; at 100% it is stopped after its current tool call and you get its partial answer.",
    );
}

/** The `isolation` argument of `spawn_agent` and `task`. */
export function isolationArgument() {
  return z
    .enum(["shared", "worktree"])
    .optional()
    .describe(
      "`worktree`: the agent works in its own git worktree and branch (from your current state, uncommitted changes included); its changes reach your tree only through merge_agent_changes. Default: the role's, else shared.",
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
