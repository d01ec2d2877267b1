import { addUsage, emptyUsage, subtractUsage, type Usage } from "@nyzhi/provider";
import type { AgentManager } from "../subagents/agent-manager.js";

/** Tokens and US dollars. */
export interface CostFigures {
  usage: Usage;
  costUsd: number;
}

/** One subagent's figures: its own requests, and its subtree's (itself and every descendant). */
export interface AgentCost {
  agentId: string;
  nickname: string;
  role: string;
  model: string;
  /** 1 for the lead's children. */
  depth: number;
  own: CostFigures;
  subtree: CostFigures;
}

/** `/cost`: the session's tokens and cost, per agent (own and subtree) and per model. */
export interface CostReport {
  /** Everything: earlier runs, the lead, subagents, teammates, and the code index's embedder (cost only). */
  total: CostFigures;
  /** The lead's own requests (earlier runs' included), on `model`. */
  lead: CostFigures & { model: string };
  /** This process's subagents, in tree order (a parent before its children). */
  agents: AgentCost[];
  /** Teammates together (their service counts them as one). */
  teammates: CostFigures;
  /** Per model: the lead's model and each subagent's own figures summed by model. */
  models: (CostFigures & { model: string })[];
}

const add = (a: CostFigures, b: CostFigures): CostFigures => ({
  usage: addUsage(a.usage, b.usage),
  costUsd: a.costUsd + b.costUsd,
});
const minus = (a: CostFigures, b: CostFigures): CostFigures => ({
  usage: subtractUsage(a.usage, b.usage),
  costUsd: Math.max(0, a.costUsd - b.costUsd),
});
const none = (): CostFigures => ({ usage: emptyUsage(), costUsd: 0 });

export interface CostReportParts {
  leadId: string;
  leadModel: string;
  total: CostFigures;
  embeddingCostUsd: number;
  manager: AgentManager | undefined;
  teammates: CostFigures;
}

/** Builds the report from the manager's per-agent counts (subtree sums; own = subtree − children's). */
export function costReport(parts: CostReportParts): CostReport {
  const { manager } = parts;
  const agents: AgentCost[] = [];
  const walk = (parentId: string) => {
    for (const childId of manager?.childrenOf(parentId) ?? []) {
      const info = manager?.info(childId);
      if (!info) continue;
      const subtree = manager?.usageOf(childId) ?? none();
      const children = (manager?.childrenOf(childId) ?? []).map((id) => manager?.usageOf(id) ?? none());
      agents.push({
        agentId: childId,
        nickname: info.nickname,
        role: info.role,
        model: info.model,
        depth: info.depth,
        subtree,
        own: children.reduce(minus, subtree),
      });
      walk(childId);
    }
  };
  walk(parts.leadId);
  const underLead = (manager?.childrenOf(parts.leadId) ?? []).map((id) => manager?.usageOf(id) ?? none());
  const models = new Map<string, CostFigures>();
  const lead = {
    ...minus(
      minus(
        minus(parts.total, { usage: emptyUsage(), costUsd: parts.embeddingCostUsd }),
        underLead.reduce(add, none()),
      ),
      parts.teammates,
    ),
    model: parts.leadModel,
  };
  models.set(lead.model, { usage: lead.usage, costUsd: lead.costUsd });
  for (const agent of agents) models.set(agent.model, add(models.get(agent.model) ?? none(), agent.own));
  return {
    total: parts.total,
    lead,
    agents,
    teammates: parts.teammates,
    models: [...models.entries()].map(([model, figures]) => ({ model, ...figures })),
  };
}
