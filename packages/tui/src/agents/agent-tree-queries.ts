import type { AgentNode, AgentTreeState } from "./agent-tree-types.js";

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
