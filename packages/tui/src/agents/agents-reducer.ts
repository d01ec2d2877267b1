import { type AgentEvent, type AgentEventOf, type AgentTag, assertNever } from "@nyzhi/core";
import { summarizeToolInput } from "../tools/summarize-tool-input.js";
import {
  type AgentLifecycle,
  type AgentNode,
  type AgentTreeInput,
  type AgentTreeState,
  emptyUsageTotals,
  isFinished,
} from "./agent-tree-types.js";

/** An empty tree. */
export function createAgentTreeState(): AgentTreeState {
  return { leadId: undefined, nodes: {}, roots: [], agentsTotal: emptyUsageTotals() };
}

/**
 * Turns agent events into the tree of agents. Pure (pass `at` for the clock), and it returns the
 * same state object when an event changes nothing the panel shows (the 400th text delta of a
 * writing agent), so a burst of deltas costs no render. The lead's own events only teach it the
 * lead's id; its children are the roots.
 */
export function agentTreeReducer(state: AgentTreeState, input: AgentTreeInput): AgentTreeState {
  const at = input.at ?? Date.now();
  const event = input as AgentEvent;
  const lead = event.agent.depth === 0;
  const known = lead && state.leadId === undefined ? { ...state, leadId: event.agent.agentId } : state;
  switch (event.type) {
    case "subagent-spawned":
      return spawn(known, event, at);
    case "subagent-status-changed":
      return updateNode(known, event.childId, (node) =>
        withLifecycle(node, event.state.lifecycle, event.state.detail, at),
      );
    case "subagent-completed":
      return complete(known, event, at);
    case "usage": {
      // Core's subtree totals: this agent's, its ancestors' and the lead's; shown as given.
      const totalled = withSubtreeTotals(known, event);
      if (lead) return totalled;
      const id = event.agent.agentId;
      const withNode = totalled.nodes[id] ? totalled : addNode(totalled, lazyNode(event.agent, at));
      return updateNode(withNode, id, (node) => ({
        ...node,
        // Core's sum of this agent's own steps.
        own: event.agentTotal,
      }));
    }
    case "turn-start":
    case "turn-end":
    case "team-state":
    case "subagent-queued":
    case "tool-call-delta":
    case "tool-output":
    case "notice":
    case "error":
    case "budget-warning":
    case "budget-exhausted":
      return known;
    default:
      break;
  }
  if (lead) return known;
  const agentId = event.agent.agentId;
  const withNode = known.nodes[agentId] ? known : addNode(known, lazyNode(event.agent, at));
  return updateNode(withNode, agentId, (node) => reduceOwnEvent(node, event));
}

/** Events an agent reports about itself: what it does now, its approvals and its usage. */
function reduceOwnEvent(node: AgentNode, event: AgentEvent): AgentNode {
  switch (event.type) {
    case "step-start":
    case "step-end":
      return node.streaming ? { ...node, streaming: undefined } : node;
    case "text-delta":
      return node.streaming === "writing" ? node : { ...node, streaming: "writing" };
    case "reasoning-delta":
      return node.streaming === "thinking" ? node : { ...node, streaming: "thinking" };
    case "tool-call-start":
      return withTool(node, event.callId, event.name, "");
    case "tool-start":
      return withTool(node, event.callId, event.name, summarizeToolInput(event.name, event.input));
    case "tool-end":
      return {
        ...node,
        tools: node.tools.filter((tool) => tool.callId !== event.callId),
        approvals: node.approvals.filter((callId) => callId !== event.callId),
      };
    case "approval-requested": {
      const next = withTool(node, event.callId, event.tool, summarizeToolInput(event.tool, event.input));
      return next.approvals.includes(event.callId)
        ? next
        : { ...next, approvals: [...next.approvals, event.callId] };
    }
    case "approval-resolved":
      return node.approvals.includes(event.callId)
        ? { ...node, approvals: node.approvals.filter((callId) => callId !== event.callId) }
        : node;
    case "retry": {
      if (!event.discard) return node;
      const dropped = new Set(event.discard.toolCalls.map((call) => call.callId));
      return { ...node, streaming: undefined, tools: node.tools.filter((tool) => !dropped.has(tool.callId)) };
    }
    case "usage":
    case "turn-start":
    case "turn-end":
    case "tool-call-delta":
    case "tool-output":
    case "notice":
    case "session-opened":
    case "hook-result":
    case "queued-delivered":
    case "question":
    case "index-progress":
    case "error":
    case "subagent-spawned":
    case "subagent-queued":
    case "subagent-status-changed":
    case "subagent-completed":
    case "budget-warning":
    case "budget-exhausted":
    case "autopilot-phase":
    case "team-state":
    case "turn-complete":
      return node;
    default:
      return assertNever(event);
  }
}

/**
 * Sets each agent's subtree figure from a `usage` event's chain (the agent, then its ancestors up
 * to the lead), and the panel's total from the lead's entry (what its descendants spent).
 */
function withSubtreeTotals(state: AgentTreeState, event: AgentEventOf<"usage">): AgentTreeState {
  const chain = event.subtreeTotals ?? [];
  let nodes: Record<string, AgentNode> | undefined;
  let agentsTotal = state.agentsTotal;
  for (const entry of chain) {
    const node = (nodes ?? state.nodes)[entry.agentId];
    if (node) {
      nodes ??= { ...state.nodes };
      nodes[entry.agentId] = { ...node, subtree: entry.subtree };
    } else if (entry.agentId === (state.leadId ?? entry.agentId) && entry === chain.at(-1)) {
      agentsTotal = entry.descendants;
    }
  }
  if (!nodes && agentsTotal === state.agentsTotal) return state;
  return { ...state, nodes: nodes ?? state.nodes, agentsTotal };
}

/** Marks a call as running (the newest is shown); a known call gets its summary once known. */
function withTool(node: AgentNode, callId: string, name: string, summary: string): AgentNode {
  const index = node.tools.findIndex((tool) => tool.callId === callId);
  if (index < 0) return { ...node, streaming: undefined, tools: [...node.tools, { callId, name, summary }] };
  const current = node.tools[index]!;
  if (current.summary === summary || summary === "")
    return node.streaming ? { ...node, streaming: undefined } : node;
  const tools = node.tools.slice();
  tools[index] = { ...current, summary };
  return { ...node, streaming: undefined, tools };
}

function spawn(state: AgentTreeState, event: AgentEventOf<"subagent-spawned">, at: number): AgentTreeState {
  const parentId = event.agent.depth === 0 ? undefined : event.agent.agentId;
  const existing = state.nodes[event.childId];
  const node: AgentNode = {
    ...(existing ?? lazyNode({ agentId: event.childId, depth: event.depth }, at)),
    parentId,
    nickname: event.nickname,
    role: event.role,
    depth: event.depth,
    model: event.model,
    budget: event.budget,
    worktree: event.worktree,
    task: event.task ?? existing?.task,
  };
  let next = existing && existing.parentId !== parentId ? detach(state, existing) : state;
  if (parentId !== undefined && !next.nodes[parentId]) next = addNode(next, lazyNode(event.agent, at));
  if (existing && existing.parentId === parentId)
    return { ...next, nodes: { ...next.nodes, [node.agentId]: node } };
  return addNode(next, node);
}

/** Takes a node out of its parent's children (or the roots), to move it under its real parent. */
function detach(state: AgentTreeState, node: AgentNode): AgentTreeState {
  const parent = node.parentId === undefined ? undefined : state.nodes[node.parentId];
  if (!parent) return { ...state, roots: state.roots.filter((id) => id !== node.agentId) };
  const children = parent.children.filter((id) => id !== node.agentId);
  return { ...state, nodes: { ...state.nodes, [parent.agentId]: { ...parent, children } } };
}

/** Adds a node under its parent (or as a root). */
function addNode(state: AgentTreeState, node: AgentNode): AgentTreeState {
  const nodes = { ...state.nodes, [node.agentId]: node };
  const parent = node.parentId === undefined ? undefined : nodes[node.parentId];
  if (!parent) return { ...state, nodes, roots: [...state.roots, node.agentId] };
  nodes[parent.agentId] = { ...parent, children: [...parent.children, node.agentId] };
  return { ...state, nodes };
}

/** A node for an agent seen before (or without) its spawn: named by its tag, a child of the lead. */
function lazyNode(tag: AgentTag, at: number): AgentNode {
  return {
    agentId: tag.agentId,
    parentId: undefined,
    nickname: tag.nickname ?? tag.agentId.slice(0, 8),
    role: tag.role ?? "",
    depth: tag.depth,
    model: "",
    lifecycle: "pending",
    detail: undefined,
    result: undefined,
    approvals: [],
    tools: [],
    streaming: undefined,
    startedAt: at,
    endedAt: undefined,
    own: emptyUsageTotals(),
    subtree: undefined,
    children: [],
  };
}

function updateNode(
  state: AgentTreeState,
  agentId: string,
  update: (node: AgentNode) => AgentNode,
): AgentTreeState {
  const node = state.nodes[agentId];
  if (!node) return state;
  const next = update(node);
  return next === node ? state : { ...state, nodes: { ...state.nodes, [agentId]: next } };
}

/** A new lifecycle; a finished agent that runs again (resumed, or a teammate woken) restarts its clock. */
function withLifecycle(node: AgentNode, lifecycle: AgentLifecycle, detail: string | undefined, at: number) {
  const wasDone = isFinished(node.lifecycle) || node.lifecycle === "idle";
  const ends = isFinished(lifecycle) || lifecycle === "idle";
  if (node.lifecycle === lifecycle && node.detail === detail) return node;
  const next: AgentNode = { ...node, lifecycle, detail };
  if (ends) {
    next.endedAt = node.endedAt !== undefined && wasDone ? node.endedAt : at;
    next.tools = [];
    next.streaming = undefined;
    next.approvals = [];
  } else if (wasDone) {
    next.startedAt = at;
    next.endedAt = undefined;
    next.subtree = undefined;
    next.result = undefined;
  }
  return next;
}

function complete(
  state: AgentTreeState,
  event: AgentEventOf<"subagent-completed">,
  at: number,
): AgentTreeState {
  return updateNode(state, event.childId, (node) => ({
    ...withLifecycle(node, event.state.lifecycle, event.state.detail, at),
    result: event.result,
    // Core's figure for its whole subtree (earlier runs' included for a restored agent).
    subtree: { usage: event.usage, costUsd: event.costUsd },
    worktree: event.worktree
      ? { branch: event.worktree.branch, path: event.worktree.path, diffStat: event.worktree.diffStat }
      : undefined,
  }));
}

/** The person merged or discarded an agent's changes: its row no longer offers them. */
export function worktreeDecided(state: AgentTreeState, agentId: string): AgentTreeState {
  return updateNode(state, agentId, (node) => (node.worktree ? { ...node, worktree: undefined } : node));
}

/** Whether the agent and every descendant have finished. */
function subtreeFinished(state: AgentTreeState, agentId: string): boolean {
  const node = state.nodes[agentId];
  if (!node) return true;
  return isFinished(node.lifecycle) && node.children.every((child) => subtreeFinished(state, child));
}

/**
 * Drops the agents that have finished, with their finished subtrees (the app calls it at the next
 * user turn). A finished agent with a descendant still at work stays, so the tree keeps its shape.
 */
export function clearFinished(state: AgentTreeState): AgentTreeState {
  const gone = Object.keys(state.nodes).filter((id) => subtreeFinished(state, id));
  if (gone.length === 0) return state;
  const dropped = new Set(gone);
  const nodes: Record<string, AgentNode> = {};
  for (const [id, node] of Object.entries(state.nodes)) {
    if (dropped.has(id)) continue;
    const children = node.children.filter((child) => !dropped.has(child));
    nodes[id] = children.length === node.children.length ? node : { ...node, children };
  }
  return { ...state, nodes, roots: state.roots.filter((id) => !dropped.has(id)) };
}

/** Feeds a batch of events (one frame's worth) through `agentTreeReducer`. */
export function reduceAgentTree(state: AgentTreeState, inputs: readonly AgentTreeInput[]): AgentTreeState {
  return inputs.reduce(agentTreeReducer, state);
}
