import type { Usage } from "@nyzhi/provider";
import {
  type AgentBudget,
  BUDGET_DIMENSIONS,
  BUDGET_WARNING_FRACTION,
  type BudgetCrossing,
  type BudgetDimension,
  type BudgetLimits,
  type BudgetReport,
  type BudgetScope,
  type BudgetSpec,
  type BudgetSpent,
  capsAnything,
  describeBudget,
} from "./budget-types.js";

interface LedgerNode {
  parentId: string | undefined;
  startedAt: number;
  own: { tokens: number; usd: number };
  /** Its own spending plus every descendant's. */
  subtree: { tokens: number; usd: number };
  budget: { limit: BudgetLimits; scope: BudgetScope } | undefined;
  warned: boolean;
  exhausted: BudgetCrossing | undefined;
  /** Notes for the agent's next step (its 80 % warning). */
  notices: string[];
}

export interface BudgetLedgerOptions {
  /** A budget crossed 80 % (`warning`) or ran out (`exhausted`). */
  onCrossing?: (kind: "warning" | "exhausted", crossing: BudgetCrossing) => void;
  /** ms since the epoch; injected for tests. */
  now?: () => number;
}

/** Tokens a step's usage counts against a budget: what was read (cache included) and written. */
export function budgetTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/**
 * What every agent of a session spends against its budget and its ancestors': the lead's (the
 * session cap, scope subtree), each subagent's own (scope agent or subtree). A child's budget is
 * clamped at registration to what is left of its parent's and of every enclosing subtree budget,
 * so it can never exceed them. Spending is recorded per model step; an agent is told at 80 % (once,
 * in its next step) and stopped at 100 % at its next step boundary — after its current tool calls —
 * together with every descendant (`stopReason` walks the ancestors).
 */
export class BudgetLedger {
  private readonly nodes = new Map<string, LedgerNode>();
  private readonly now: () => number;

  constructor(private readonly options: BudgetLedgerOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Adds an agent (the lead with `parentId` undefined). Returns its effective budget: the spec
   * clamped to what its parent and enclosing subtree budgets have left, or undefined for none.
   */
  register(
    agentId: string,
    parentId: string | undefined,
    spec: BudgetSpec | undefined,
  ): BudgetSpec | undefined {
    const existing = this.nodes.get(agentId);
    const node: LedgerNode = existing ?? {
      parentId,
      startedAt: this.now(),
      own: { tokens: 0, usd: 0 },
      subtree: { tokens: 0, usd: 0 },
      budget: undefined,
      warned: false,
      exhausted: undefined,
      notices: [],
    };
    // A resumed agent starts its wall clock again and its earlier crossings no longer stop it.
    node.startedAt = this.now();
    node.exhausted = undefined;
    node.warned = false;
    node.budget = undefined;
    this.nodes.set(agentId, node);
    if (!capsAnything(spec)) return undefined;
    const limit: BudgetLimits = {};
    for (const dimension of BUDGET_DIMENSIONS) {
      let cap = spec[dimension];
      for (const left of this.leftAbove(parentId, dimension))
        cap = cap === undefined ? cap : Math.min(cap, left);
      if (cap !== undefined) limit[dimension] = Math.max(0, cap);
    }
    node.budget = { limit, scope: spec.scope ?? "agent" };
    return { ...limit, scope: node.budget.scope };
  }

  /** Counts a model step of `agentId`; emits the crossings it causes. */
  record(agentId: string, usage: Usage, costUsd: number): void {
    const node = this.nodes.get(agentId);
    if (!node) return;
    const tokens = budgetTokens(usage);
    node.own.tokens += tokens;
    node.own.usd += costUsd;
    for (let id: string | undefined = agentId; id !== undefined; id = this.nodes.get(id)?.parentId) {
      const current = this.nodes.get(id);
      if (!current) break;
      current.subtree.tokens += tokens;
      current.subtree.usd += costUsd;
    }
    this.checkChain(agentId);
  }

  /**
   * Why `agentId` must stop before its next model request: its own budget or an ancestor's subtree
   * budget (the session's included) ran out. Undefined: go on. Checks the wall clock too.
   */
  stopReason(agentId: string): string | undefined {
    this.checkChain(agentId);
    for (let id: string | undefined = agentId; id !== undefined; id = this.nodes.get(id)?.parentId) {
      const node = this.nodes.get(id);
      if (!node) break;
      const crossing = node.exhausted;
      if (!crossing) continue;
      if (id !== agentId && crossing.report.scope !== "subtree") continue;
      const whose =
        id === agentId ? "its budget" : id === "lead" ? "the session's budget" : `the budget of agent ${id}`;
      return `${whose} ran out: ${describeBudget(crossing.report)}`;
    }
    return undefined;
  }

  /** The 80 % notes for the agent's next step (each once). */
  takeNotices(agentId: string): string[] {
    const node = this.nodes.get(agentId);
    return node ? node.notices.splice(0) : [];
  }

  /** The agent's budget now, or undefined when it has none. */
  report(agentId: string): BudgetReport | undefined {
    const node = this.nodes.get(agentId);
    if (!node?.budget) return undefined;
    const spent = this.spentOf(node, node.budget.scope);
    const left: BudgetLimits = {};
    for (const dimension of BUDGET_DIMENSIONS) {
      const cap = node.budget.limit[dimension];
      if (cap !== undefined) left[dimension] = Math.max(0, cap - spent[dimension]);
    }
    return { scope: node.budget.scope, limit: { ...node.budget.limit }, spent, left };
  }

  /** The loop's view of one agent's budget (see `AgentContext.budget`). */
  hooksFor(agentId: string): AgentBudget {
    return {
      record: (usage, costUsd) => this.record(agentId, usage, costUsd),
      stopReason: () => this.stopReason(agentId),
      takeNotices: () => this.takeNotices(agentId),
    };
  }

  /** Forgets an agent (its spending stays in its ancestors' subtree totals). */
  forget(agentId: string): void {
    this.nodes.delete(agentId);
  }

  /** What is left of the parent's budget and of every enclosing subtree budget, for one dimension. */
  private leftAbove(parentId: string | undefined, dimension: BudgetDimension): number[] {
    const left: number[] = [];
    for (let id = parentId; id !== undefined; id = this.nodes.get(id)?.parentId) {
      const node = this.nodes.get(id);
      if (!node) break;
      if (node.budget && (id === parentId || node.budget.scope === "subtree")) {
        const remaining = this.report(id)?.left[dimension];
        if (remaining !== undefined) left.push(remaining);
      }
    }
    return left;
  }

  private spentOf(node: LedgerNode, scope: BudgetScope): BudgetSpent {
    const totals = scope === "subtree" ? node.subtree : node.own;
    return { tokens: totals.tokens, usd: totals.usd, minutes: (this.now() - node.startedAt) / 60_000 };
  }

  /** Checks the agent's own budget and every ancestor's subtree budget. */
  private checkChain(agentId: string): void {
    for (let id: string | undefined = agentId; id !== undefined; id = this.nodes.get(id)?.parentId) {
      const node = this.nodes.get(id);
      if (!node) break;
      if (node.budget && (id === agentId || node.budget.scope === "subtree")) this.check(id, node);
    }
  }

  private check(id: string, node: LedgerNode): void {
    if (!node.budget || node.exhausted) return;
    const report = this.report(id)!;
    let worst: { dimension: BudgetDimension; fraction: number } | undefined;
    for (const dimension of BUDGET_DIMENSIONS) {
      const cap = report.limit[dimension];
      if (cap === undefined) continue;
      const fraction = cap === 0 ? Number.POSITIVE_INFINITY : report.spent[dimension] / cap;
      if (!worst || fraction > worst.fraction) worst = { dimension, fraction };
    }
    if (!worst) return;
    const crossing: BudgetCrossing = { ownerId: id, dimension: worst.dimension, report };
    if (worst.fraction >= 1) {
      node.exhausted = crossing;
      node.warned = true;
      this.options.onCrossing?.("exhausted", crossing);
    } else if (worst.fraction >= BUDGET_WARNING_FRACTION && !node.warned) {
      node.warned = true;
      node.notices.push(
        `[budget] ${Math.floor(worst.fraction * 100)}% of your budget is spent (${describeBudget(report)}). At 100% you are stopped after your current tool call: wrap up now and give your answer with what you have.`,
      );
      this.options.onCrossing?.("warning", crossing);
    }
  }
}
