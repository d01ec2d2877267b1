import { useRef } from "react";
import { REFRESH_MS } from "../tools/refresh-clock.js";
import type { AgentNode, AgentTreeState } from "./agent-tree-types.js";

/**
 * How often a working row may change (ms): its spinner, clock, activity and tokens move together,
 * on the app's refresh clock (`tools/refresh-clock.ts`).
 */
export const ROW_REFRESH_MS = REFRESH_MS;

/**
 * A change a row shows at once: it starts or ends, asks for approval, gets a child, learns its
 * name or final figures. What changes with every chunk (the tool it runs, thinking / writing,
 * tokens) waits for the next refresh tick.
 */
export function isMajorChange(before: AgentNode, after: AgentNode): boolean {
  return (
    before.lifecycle !== after.lifecycle ||
    before.approvals.length !== after.approvals.length ||
    before.children !== after.children ||
    before.nickname !== after.nickname ||
    before.role !== after.role ||
    before.model !== after.model ||
    before.detail !== after.detail ||
    before.subtree !== after.subtree
  );
}

interface Gate {
  tick: number;
  /** The clock at that tick (ms), for the elapsed times. */
  at: number;
  shown: AgentTreeState["nodes"];
}

/**
 * The nodes as the rows show them. While agents work (`active`), a node's minor changes are
 * held until `tick` moves on (every `ROW_REFRESH_MS`), so however many events arrive, a row
 * renders once per tick plus once per major change. Idle, every change shows at once.
 */
export function useGatedNodes(
  nodes: AgentTreeState["nodes"],
  tick: number,
  active: boolean,
  now: () => number,
): Gate {
  const gate = useRef<Gate | undefined>(undefined);
  const previous = gate.current;
  if (!previous || !active || previous.tick !== tick) {
    gate.current = { tick, at: now(), shown: nodes };
    return gate.current;
  }
  if (previous.shown === nodes) return previous;
  const shown: Record<string, AgentNode> = {};
  for (const [id, node] of Object.entries(nodes)) {
    const before = previous.shown[id];
    shown[id] = !before || before === node || isMajorChange(before, node) ? node : before;
  }
  gate.current = { tick, at: previous.at, shown };
  return gate.current;
}
