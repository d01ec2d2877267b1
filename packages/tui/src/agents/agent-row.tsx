import { Text } from "ink";
import { memo } from "react";
import type { Theme } from "../theme/theme.js";
import { useTheme } from "../theme/theme-context.js";
import { Spinner } from "../tools/spinner.js";
import { type AgentRowText, type ColumnPlan, layoutRow, type RowPart } from "./agent-row-layout.js";
import type { AgentRunStatus } from "./agent-tree-types.js";

export interface AgentRowProps {
  text: AgentRowText;
  plan: ColumnPlan;
  status: AgentRunStatus;
  /** The refresh tick (drives the spinner); a constant for rows that do not move. */
  tick: number;
  selected: boolean;
  /** Finished rows are dimmed. */
  dim: boolean;
  /** Called on every render of the row (profiling, tests). */
  onRender?: (() => void) | undefined;
}

function statusColour(status: AgentRunStatus, theme: Theme): string {
  switch (status) {
    case "running":
      return theme.accent;
    case "awaiting-approval":
      return theme.warning;
    case "completed":
      return theme.success;
    case "errored":
      return theme.danger;
    case "idle":
      return theme.muted;
    case "pending":
    case "shutdown":
      return theme.subtle;
  }
}

const ICONS: Readonly<Record<Exclude<AgentRunStatus, "running">, string>> = {
  pending: "◌",
  "awaiting-approval": "?",
  idle: "○",
  completed: "✓",
  errored: "✗",
  shutdown: "■",
};

function partColour(part: RowPart, status: AgentRunStatus, theme: Theme): string {
  switch (part) {
    case "name":
      return theme.text;
    case "status":
      return statusColour(status, theme);
    case "unread":
      return theme.warning;
    case "activity":
      return theme.muted;
    case "figure":
      return theme.subtle;
    case "subtree":
      return theme.info;
  }
}

/** The row's texts, the plan and the flags are all it draws: equal values, no render. */
function sameRow(before: AgentRowProps, after: AgentRowProps): boolean {
  if (
    before.status !== after.status ||
    before.tick !== after.tick ||
    before.selected !== after.selected ||
    before.dim !== after.dim
  )
    return false;
  const keys = Object.keys(after.text) as (keyof AgentRowText)[];
  if (keys.some((key) => before.text[key] !== after.text[key])) return false;
  const columns = Object.keys(after.plan) as (keyof ColumnPlan)[];
  return columns.every((key) => before.plan[key] === after.plan[key]);
}

/**
 * One agent: selection marker, number, status icon (a spinner while it runs), then the columns
 * the plan keeps. Memoized on its texts, so a row renders only when what it shows changes.
 */
export const AgentRow = memo(function AgentRow(props: AgentRowProps) {
  const { text, plan, status, tick, selected, dim, onRender } = props;
  onRender?.();
  const theme = useTheme();
  const pieces = layoutRow(text, plan);
  return (
    <Text wrap="truncate-end" dimColor={dim}>
      <Text color={theme.accent}>{selected ? "›" : " "}</Text>
      <Text color={theme.subtle}>{text.number || " "}</Text>{" "}
      {status === "running" ? (
        <Spinner tick={tick} />
      ) : (
        <Text color={statusColour(status, theme)}>{ICONS[status]}</Text>
      )}{" "}
      {pieces.map((piece, index) => (
        <Text
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of a row are positional
          key={index}
          color={partColour(piece.part, status, theme)}
          bold={piece.part === "name" && selected}
        >
          {piece.text}
        </Text>
      ))}
    </Text>
  );
}, sameRow);
