import { type AgentNode, type AgentTreeState, addUsageTotals, type UsageTotals } from "./agent-tree-types.js";

/**
 * Each agent's subtree total: its own usage plus its descendants'. A finished agent's total is
 * the one core reported with `subagent-completed` (core counts usage the panel may not have seen,
 * such as agents it forgot), so that figure wins when the two differ.
 */
export function subtreeTotals(nodes: AgentTreeState["nodes"]): ReadonlyMap<string, UsageTotals> {
  const totals = new Map<string, UsageTotals>();
  const visit = (id: string, seen: Set<string>): UsageTotals | undefined => {
    const node = nodes[id];
    if (!node || seen.has(id)) return undefined;
    const cached = totals.get(id);
    if (cached) return cached;
    seen.add(id);
    let total = node.own;
    for (const child of node.children) {
      const figure = visit(child, seen);
      if (figure) total = addUsageTotals(total, figure);
    }
    const chosen = node.reported ?? total;
    totals.set(id, chosen);
    return chosen;
  };
  for (const id of Object.keys(nodes)) visit(id, new Set());
  return totals;
}

/** The agents from the lead's child down to `agentId` (for the breadcrumb); [] when unknown. */
export function agentPath(state: Pick<AgentTreeState, "nodes">, agentId: string): AgentNode[] {
  const path: AgentNode[] = [];
  let node = state.nodes[agentId];
  while (node && !path.includes(node)) {
    path.unshift(node);
    node = node.parentId === undefined ? undefined : state.nodes[node.parentId];
  }
  return path;
}

/** One line of the tree in display order: the node and how deep it is drawn (0 for a root). */
export interface TreeLine {
  node: AgentNode;
  level: number;
}

/** The nodes under `roots`, depth first in spawn order, each with its level. */
export function flattenTree(nodes: AgentTreeState["nodes"], roots: readonly string[]): TreeLine[] {
  const lines: TreeLine[] = [];
  const seen = new Set<string>();
  const visit = (id: string, level: number) => {
    const node = nodes[id];
    if (!node || seen.has(id)) return;
    seen.add(id);
    lines.push({ node, level });
    for (const child of node.children) visit(child, level + 1);
  };
  for (const id of roots) visit(id, 0);
  return lines;
}
