import type { Usage } from "@nyzhi/provider";
/** Caps of a budget: tokens (input + output), US dollars, wall-clock minutes. Absent: no cap. */
export interface BudgetLimits {
  usd?: number;
  tokens?: number;
  minutes?: number;
}

/** Whose spending counts: the agent's own, or the agent's and all its descendants'. */
export type BudgetScope = "agent" | "subtree";

/** A budget as asked for (`spawn_agent`/`task` argument, a role's default, the session cap). */
export interface BudgetSpec extends BudgetLimits {
  /** Default `agent`. */
  scope?: BudgetScope;
}

/** What a budget's owner has spent so far, in its scope. */
export interface BudgetSpent {
  tokens: number;
  usd: number;
  minutes: number;
}

/** A budget's state: its limits, what was spent, what is left (per capped dimension). */
export interface BudgetReport {
  scope: BudgetScope;
  limit: BudgetLimits;
  spent: BudgetSpent;
  left: BudgetLimits;
}

/** The dimension of a budget that ran out (or crossed its warning). */
export type BudgetDimension = keyof BudgetLimits;

/** A budget crossed its warning or its limit. */
export interface BudgetCrossing {
  /** The agent whose budget it is (`lead` for the session's). */
  ownerId: string;
  dimension: BudgetDimension;
  report: BudgetReport;
}

/** Share of a budget at which its owner is warned (so it can wrap up). */
export const BUDGET_WARNING_FRACTION = 0.8;

export const BUDGET_DIMENSIONS: readonly BudgetDimension[] = ["tokens", "usd", "minutes"];

/** Whether a spec caps anything. */
export function capsAnything(spec: BudgetLimits | undefined): spec is BudgetLimits {
  return spec !== undefined && BUDGET_DIMENSIONS.some((dimension) => spec[dimension] !== undefined);
}

/** `tokens 6,120 of 5,000` / `$0.0312 of $0.0300` / `2.1 of 2 min`: one dimension, for people and models. */
export function describeDimension(
  dimension: BudgetDimension,
  spent: BudgetSpent,
  limit: BudgetLimits,
): string {
  const cap = limit[dimension];
  switch (dimension) {
    case "tokens":
      return `tokens ${spent.tokens.toLocaleString("en-US")}${cap !== undefined ? ` of ${cap.toLocaleString("en-US")}` : ""}`;
    case "usd":
      return `$${spent.usd.toFixed(4)}${cap !== undefined ? ` of $${cap.toFixed(4)}` : ""}`;
    case "minutes":
      return `${spent.minutes.toFixed(1)}${cap !== undefined ? ` of ${cap}` : ""} min`;
  }
}

/** Every capped dimension, spent of limit: `tokens 4,100 of 5,000, $0.0120 of $0.0500`. */
export function describeBudget(report: BudgetReport): string {
  const parts = BUDGET_DIMENSIONS.filter((dimension) => report.limit[dimension] !== undefined).map(
    (dimension) => describeDimension(dimension, report.spent, report.limit),
  );
  return `${parts.join(", ")}${report.scope === "subtree" ? " (with its subagents)" : ""}`;
}

/** An agent's budget as the loop sees it (the budget ledger implements it). */
export interface AgentBudget {
  /** Counts one model request's usage (and its cost in US dollars). */
  record(usage: Usage, costUsd: number): void;
  /** Why the agent must stop before its next model request; undefined: go on. */
  stopReason(): string | undefined;
  /** Notes for the agent's next step (its 80 % warning), each once. */
  takeNotices(): string[];
}
