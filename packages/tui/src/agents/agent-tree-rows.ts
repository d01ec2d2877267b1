import type { BudgetSpec, MemberState, TeammateSnapshot, TeamSnapshot, TeamSummary } from "@nyzhi/core";
import { formatCost, formatTokens } from "../status/format-usage.js";
import type { AgentRowText } from "./agent-row-layout.js";
import { flattenTree } from "./agent-tree-queries.js";
import {
  type AgentLifecycle,
  type AgentNode,
  type AgentRunStatus,
  type AgentTreeState,
  agentStatus,
  isFinished,
  totalTokens,
  type UsageTotals,
} from "./agent-tree-types.js";
import { activityOf, agentName, formatElapsed, shortModel, statusLabel } from "./format-agent.js";

/** One line of the panel. Only `agent` rows can be selected (they have a transcript). */
export type TreeRow =
  | {
      kind: "agent";
      key: string;
      agentId: string;
      status: AgentRunStatus;
      /** Finished rows are drawn dimmed. */
      finished: boolean;
      text: AgentRowText;
    }
  /** A teammate with no agent in this process (listed, or run by another process). */
  | { kind: "member"; key: string; status: AgentRunStatus; finished: boolean; text: AgentRowText }
  | { kind: "team"; key: string; team: TeamSummary };

export interface TreeRowsInput {
  nodes: AgentTreeState["nodes"];
  roots: readonly string[];
  /** What every agent spent, as core summed it (`AgentTreeState.agentsTotal`). */
  total: UsageTotals;
  teams: TeamSnapshot | undefined;
  /** The clock for running agents' elapsed time (ms). */
  now: number;
  /** Indentation stops growing at this depth. */
  maxDepth: number;
}

export interface TreeRows {
  rows: TreeRow[];
  /** Agent ids of the selectable rows, top to bottom; the first nine are numbered. */
  selectable: string[];
  /** What every agent spent: core's figure, as given. */
  total: UsageTotals;
  working: number;
  finished: number;
}

const MEMBER_STATUS: Readonly<Record<MemberState, AgentLifecycle>> = {
  pending: "pending",
  working: "running",
  idle: "idle",
  shutdown: "shutdown",
  stopped: "shutdown",
};

/** "4.2k/5k", "$0.012/$0.050": spent of its budget, when the budget caps that figure. */
function ofBudget(spent: string, cap: string | undefined): string {
  return cap === undefined ? spent : `${spent || "0"}/${cap}`;
}

function figures(own: UsageTotals, subtree: UsageTotals | undefined, budget: BudgetSpec | undefined) {
  // A subtree budget counts the subtree's spending; the row's own figures then show that.
  const counted = budget?.scope === "subtree" && subtree ? subtree : own;
  const ownTokens = totalTokens(counted.usage);
  const tokens = ofBudget(
    ownTokens > 0 ? formatTokens(ownTokens) : "",
    budget?.tokens !== undefined ? formatTokens(budget.tokens) : undefined,
  );
  const cost = ofBudget(
    formatCost(counted.costUsd),
    budget?.usd !== undefined ? `$${budget.usd.toFixed(3)}` : undefined,
  );
  if (!subtree) return { tokens, cost, subtree: "", sumTokens: tokens, sumCost: cost };
  const sum = formatTokens(totalTokens(subtree.usage));
  const sumCost = formatCost(subtree.costUsd);
  return {
    tokens,
    cost,
    subtree: sumCost ? `Σ ${sum} ${sumCost}` : `Σ ${sum}`,
    sumTokens: `Σ${sum}`,
    sumCost,
  };
}

function agentText(
  node: AgentNode,
  level: number,
  input: TreeRowsInput,
  extra: { subtree: UsageTotals | undefined; teammate?: TeammateSnapshot | undefined },
): AgentRowText {
  const status = agentStatus(node);
  const teammate = extra.teammate !== undefined;
  const unread = extra.teammate?.unread ?? 0;
  return {
    number: "",
    indent: Math.min(level, input.maxDepth - 1) * 2,
    name: agentName(node),
    status: statusLabel(status, { teammate }),
    statusShort: statusLabel(status, { teammate, short: true }),
    unread: unread > 0 ? `✉ ${unread}` : "",
    activity: node.worktree?.diffStat
      ? `⎇ ${node.worktree.branch} · ${node.worktree.diffStat} · d diff  m merge  X discard`
      : node.worktree && !isFinished(node.lifecycle)
        ? `${activityOf(node) || "working"} · ⎇ ${node.worktree.branch}`
        : activityOf(node),
    elapsed: formatElapsed((node.endedAt ?? input.now) - node.startedAt),
    model: shortModel(node.model),
    ...figures(node.own, node.children.length > 0 ? extra.subtree : undefined, node.budget),
  };
}

function memberText(member: TeammateSnapshot): AgentRowText {
  const status = MEMBER_STATUS[member.state];
  return {
    number: "",
    indent: 2,
    name: agentName({ nickname: member.name, role: member.role ?? "" }),
    status: statusLabel(status, { teammate: true }),
    statusShort: statusLabel(status, { teammate: true, short: true }),
    unread: member.unread > 0 ? `✉ ${member.unread}` : "",
    activity: "",
    elapsed: "",
    model: "",
    tokens: "",
    cost: "",
    subtree: "",
    sumTokens: "",
    sumCost: "",
  };
}

/**
 * The panel's lines: the lead's subagents as a tree, then each team with its members (a member
 * running here shows as a full agent row with its own subagents below it). Pure; the component
 * fits the texts to the width.
 */
export function buildTreeRows(input: TreeRowsInput): TreeRows {
  const teammates = new Map<string, TeammateSnapshot>();
  for (const team of input.teams?.teams ?? [])
    for (const member of team.members) if (member.agentId) teammates.set(member.agentId, member);
  const rows: TreeRow[] = [];
  const addTree = (roots: readonly string[], baseLevel: number) => {
    for (const { node, level } of flattenTree(input.nodes, roots)) {
      const status = agentStatus(node);
      const text = agentText(node, baseLevel + level, input, {
        subtree: node.subtree,
        teammate: level === 0 ? teammates.get(node.agentId) : undefined,
      });
      const finished = isFinished(node.lifecycle);
      rows.push({ kind: "agent", key: node.agentId, agentId: node.agentId, status, finished, text });
    }
  };
  addTree(
    input.roots.filter((id) => !teammates.has(id)),
    0,
  );
  for (const team of input.teams?.teams ?? []) {
    rows.push({ kind: "team", key: `team:${team.name}`, team });
    for (const member of team.members) {
      if (member.agentId && input.nodes[member.agentId]) addTree([member.agentId], 1);
      else {
        const status = MEMBER_STATUS[member.state];
        const finished = isFinished(status);
        rows.push({
          kind: "member",
          key: `${team.name}/${member.name}`,
          status,
          finished,
          text: memberText(member),
        });
      }
    }
  }
  const selectable: string[] = [];
  for (const row of rows) {
    if (row.kind !== "agent") continue;
    selectable.push(row.agentId);
    if (selectable.length <= 9) row.text = { ...row.text, number: String(selectable.length) };
  }
  const nodes = Object.values(input.nodes);
  const finished = nodes.filter((node) => isFinished(node.lifecycle)).length;
  const working = nodes.filter((node) => !isFinished(node.lifecycle) && node.lifecycle !== "idle").length;
  return { rows, selectable, total: input.total, working, finished };
}
