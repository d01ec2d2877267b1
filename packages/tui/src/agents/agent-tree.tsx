import type { TaskBoardSummary, TeamSnapshot, TeamSummary } from "@nyzhi/core";
import { Box, Text, useStdout } from "ink";
import { useRef, useState } from "react";
import { useKeypress } from "../keys/use-keypress.js";
import { formatCost, formatTokens } from "../status/format-usage.js";
import { truncateToWidth } from "../text/display-width.js";
import { useTheme } from "../theme/theme-context.js";
import { useRefreshTick } from "../tools/refresh-clock.js";
import { AgentRow } from "./agent-row.js";
import { planColumns } from "./agent-row-layout.js";
import { buildTreeRows } from "./agent-tree-rows.js";
import { type AgentTreeState, isFinished, totalTokens } from "./agent-tree-types.js";
import { useGatedNodes } from "./use-gated-nodes.js";

export interface AgentTreeProps {
  state: AgentTreeState;
  /** Teams and their boards, as core last reported them (`team-state` events; the session view's `teams`). */
  teams?: TeamSnapshot | undefined;
  /** Columns; default the terminal's width. */
  width?: number | undefined;
  /** Indentation stops growing below this depth (`agent.agents.max_depth`). Default 4. */
  maxDepth?: number | undefined;
  /** Whether ↑/↓, 1–9 and Enter go to the tree. Default true. */
  isActive?: boolean | undefined;
  /** The selected row changed (by a key). */
  onSelect?: ((agentId: string) => void) | undefined;
  /** Enter on a row: open that agent's transcript. */
  onOpen?: ((agentId: string) => void) | undefined;
  /** The clock for elapsed times (ms since epoch); default `Date.now`. */
  now?: (() => number) | undefined;
  /** Called with the row's key on every render of a row (profiling, tests). */
  onRowRender?: ((key: string) => void) | undefined;
}

/** "3 open · 1 claimed · 4 done". */
export function formatBoard(board: TaskBoardSummary): string {
  return `${board.open} open · ${board.claimed} claimed · ${board.done} done`;
}

function teamLine(team: TeamSummary): string {
  const parts = [`team ${team.name}`, `board ${formatBoard(team.board)}`];
  if (team.leadUnread > 0) parts.push(`✉ ${team.leadUnread} for you`);
  return parts.join(" · ");
}

/**
 * The agents panel's tree: one row per agent, indented under its parent, with a spinner while it
 * runs, its status, what it does now, elapsed time, model, tokens and cost, and the subtree's
 * total on a parent's row; finished rows are dimmed. Teams follow with their members, unread
 * counts and task board. ↑/↓ or a row's number select, Enter opens (`onOpen`).
 *
 * Rows refresh at most every `ROW_REFRESH_MS`: events may arrive every frame, but a working row's
 * spinner, clock, activity and tokens change together on the refresh tick (see `useGatedNodes`).
 */
export function AgentTree(props: AgentTreeProps) {
  const { state, teams, onSelect, onOpen, onRowRender } = props;
  const theme = useTheme();
  const { stdout } = useStdout();
  const columns = props.width ?? stdout.columns ?? 80;
  const now = props.now ?? Date.now;
  const nodes = Object.values(state.nodes);
  const active =
    nodes.some((node) => !isFinished(node.lifecycle) && node.lifecycle !== "idle") ||
    (teams?.teams ?? []).some((team) => team.members.some((member) => member.state === "working"));
  const tick = useRefreshTick(active);
  const gate = useGatedNodes(state.nodes, tick, active, now);
  const tree = buildTreeRows({
    nodes: gate.shown,
    roots: state.roots,
    total: state.agentsTotal,
    teams,
    now: gate.at,
    maxDepth: props.maxDepth ?? 4,
  });
  const plan = planColumns(
    tree.rows.flatMap((row) => (row.kind === "team" ? [] : [row.text])),
    columns,
  );
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  // Keys that arrive in one read ("3" and Enter) are handled before the next render: they read
  // the selection from here, not from the render's closure.
  const latest = useRef<string | undefined>(undefined);
  const selectedOf = (id: string | undefined) =>
    id !== undefined && tree.selectable.includes(id) ? id : tree.selectable[0];
  const selected = selectedOf(chosen);

  const select = (agentId: string | undefined) => {
    if (agentId === undefined || agentId === selectedOf(latest.current)) return;
    latest.current = agentId;
    setChosen(agentId);
    onSelect?.(agentId);
  };
  useKeypress(
    (key) => {
      const current = selectedOf(latest.current);
      const index = current === undefined ? -1 : tree.selectable.indexOf(current);
      if (key.name === "up") select(tree.selectable[Math.max(0, index - 1)]);
      else if (key.name === "down") select(tree.selectable[Math.min(tree.selectable.length - 1, index + 1)]);
      else if (key.name === "return" && current !== undefined) onOpen?.(current);
      else if (key.name === "text" && /^[1-9]$/.test(key.text)) select(tree.selectable[Number(key.text) - 1]);
    },
    { isActive: props.isActive !== false },
  );

  const tokens = totalTokens(tree.total.usage);
  const summary = [
    "Agents",
    `${tree.working} working`,
    tree.finished > 0 ? `${tree.finished} finished` : "",
    tokens > 0 ? `Σ ${formatTokens(tokens)} ${formatCost(tree.total.costUsd)}`.trim() : "",
  ].filter(Boolean);
  return (
    <Box flexDirection="column" width={columns}>
      <Text bold wrap="truncate-end">
        {summary.join(" · ")}
      </Text>
      {tree.rows.map((row) =>
        row.kind === "team" ? (
          <Text key={row.key} color={theme.info} wrap="truncate-end">
            {truncateToWidth(teamLine(row.team), columns)}
          </Text>
        ) : (
          <AgentRow
            key={row.key}
            text={row.text}
            plan={plan}
            status={row.status}
            tick={row.finished || row.status === "idle" ? 0 : tick}
            selected={row.kind === "agent" && row.agentId === selected}
            dim={row.finished}
            onRender={onRowRender ? () => onRowRender(row.key) : undefined}
          />
        ),
      )}
      {tree.selectable.length > 0 && props.isActive !== false ? (
        <Text color={theme.subtle} wrap="truncate-end">
          {columns >= 60 ? "↑↓ or 1–9 select · enter open transcript" : "↑↓ 1–9 select · enter open"}
        </Text>
      ) : null}
    </Box>
  );
}
