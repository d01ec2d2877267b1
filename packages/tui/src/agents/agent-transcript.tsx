import { Box, Text, useStdout } from "ink";
import { useKeypress } from "../keys/use-keypress.js";
import { formatCost, formatTokens } from "../status/format-usage.js";
import { useTheme } from "../theme/theme-context.js";
import { useTicker } from "../tools/spinner.js";
import { TranscriptItemView } from "../transcript/transcript-item-view.js";
import type { TranscriptState } from "../transcript/transcript-types.js";
import { agentPath } from "./agent-tree-queries.js";
import {
  type AgentNode,
  type AgentTreeState,
  agentStatus,
  isFinished,
  totalTokens,
} from "./agent-tree-types.js";
import { agentName, formatElapsed, statusLabel } from "./format-agent.js";

export interface AgentTranscriptProps {
  tree: AgentTreeState;
  agentId: string;
  /** The agent's transcript (`AgentsPanelState.transcripts[agentId]`). */
  transcript: TranscriptState | undefined;
  /** Columns; default the terminal's width. */
  width?: number | undefined;
  /** The newest items shown (the view has no scrollback of its own). Default 12. */
  maxItems?: number | undefined;
  /** Whether the keys go to this view. Default true. */
  isActive?: boolean | undefined;
  /** The first crumb. Default "lead". */
  leadLabel?: string | undefined;
  /** The app's expand key, shown on collapsed diffs. */
  expandHint?: string | undefined;
  /** `i`: ask the user for a message, then `manager.sendInput(agentId, message)`. */
  onSendInput?: ((agentId: string) => void) | undefined;
  /** `x`: `manager.close(agentId)`, which stops the agent and its descendants only. */
  onStop?: ((agentId: string) => void) | undefined;
  /** `r` on a finished agent: ask for a message, then `manager.resume(agentId, message)`. */
  onResume?: ((agentId: string) => void) | undefined;
  /** `c` once it has a result: put `result` on the clipboard. */
  onCopyResult?: ((agentId: string, result: string) => void) | undefined;
  /** `d` / `m` / `X` while its worktree's changes wait: show the diff, merge them, discard them. */
  onWorktree?: ((agentId: string, action: "diff" | "merge" | "discard") => void) | undefined;
  /** Esc: back to the lead. */
  onBack?: (() => void) | undefined;
  /** The clock for the elapsed time (ms since epoch); default `Date.now`. */
  now?: (() => number) | undefined;
}

/** "lead › Opal (explorer) › Quartz (worker)". */
export function breadcrumb(tree: AgentTreeState, agentId: string, leadLabel = "lead"): string {
  return [leadLabel, ...agentPath(tree, agentId).map(agentName)].join(" › ");
}

/** What the agent can be asked now, as key hints. */
export function transcriptHints(node: AgentNode | undefined, options: { narrow: boolean }): string[] {
  const hints: string[] = [];
  const working = node !== undefined && !isFinished(node.lifecycle);
  if (working) hints.push(options.narrow ? "i input" : "i send input");
  if (working) hints.push(options.narrow ? "x stop" : "x stop (and its subagents)");
  if (node && isFinished(node.lifecycle)) hints.push("r resume");
  if (node?.result) hints.push(options.narrow ? "c copy" : "c copy result");
  if (node?.worktree?.diffStat) hints.push("d diff", "m merge", "X discard");
  hints.push("esc back");
  return hints;
}

function headerFigures(node: AgentNode, now: number): string {
  const tokens = totalTokens(node.own.usage);
  return [
    statusLabel(agentStatus(node)),
    formatElapsed((node.endedAt ?? now) - node.startedAt),
    tokens > 0 ? formatTokens(tokens) : "",
    formatCost(node.own.costUsd),
    node.budget ? `budget ${describeLimits(node.budget)}` : "",
    node.worktree
      ? `⎇ ${node.worktree.branch}${node.worktree.diffStat ? ` (${node.worktree.diffStat})` : ""}`
      : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** "5k tokens, $0.050, 10 min (subtree)". */
function describeLimits(budget: NonNullable<AgentNode["budget"]>): string {
  const parts = [
    budget.tokens !== undefined ? `${formatTokens(budget.tokens)} tokens` : "",
    budget.usd !== undefined ? `$${budget.usd.toFixed(3)}` : "",
    budget.minutes !== undefined ? `${budget.minutes} min` : "",
  ].filter(Boolean);
  return `${parts.join(", ")}${budget.scope === "subtree" ? " (subtree)" : ""}`;
}

/** Lines of the task shown; a longer one ends with how many more it has. */
const TASK_LINES = 6;

/** The agent's task at the top of its transcript: who gave it, its role and model, the message. */
function AgentTask({ node, tree, leadLabel }: { node: AgentNode; tree: AgentTreeState; leadLabel: string }) {
  const theme = useTheme();
  const parent =
    node.parentId === undefined ? leadLabel : (tree.nodes[node.parentId]?.nickname ?? node.parentId);
  const lines = node.task?.trim().split("\n") ?? [];
  const shown = lines.slice(0, TASK_LINES);
  return (
    <Box flexDirection="column">
      <Text color={theme.muted} wrap="truncate-end">
        {["task from " + parent, node.role, node.model].filter(Boolean).join(" · ")}
      </Text>
      {shown.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one fixed text.
        <Text key={index} wrap="truncate-end">
          {"  "}
          {line}
        </Text>
      ))}
      {lines.length > shown.length ? (
        <Text color={theme.subtle}>{`  … ${lines.length - shown.length} more lines`}</Text>
      ) : null}
      {lines.length === 0 ? (
        <Text color={theme.subtle}>{"  (its task was given before this app opened)"}</Text>
      ) : null}
    </Box>
  );
}

/**
 * One agent's live transcript, drawn by the lead's item components: a breadcrumb with its status,
 * its newest items, and the keys that steer it. Nothing here talks to core; the callbacks do.
 */
export function AgentTranscript(props: AgentTranscriptProps) {
  const { tree, agentId, transcript } = props;
  const theme = useTheme();
  const { stdout } = useStdout();
  const columns = props.width ?? stdout.columns ?? 80;
  const node = tree.nodes[agentId];
  const working = node !== undefined && !isFinished(node.lifecycle) && node.lifecycle !== "idle";
  // The header's clock moves once a second while the agent works.
  useTicker(working, 1000);
  const now = (props.now ?? Date.now)();

  useKeypress(
    (key) => {
      if (key.name === "escape") props.onBack?.();
      if (key.name !== "text" || key.ctrl || key.meta || !node) return;
      const finished = isFinished(node.lifecycle);
      if (key.text === "i" && !finished) props.onSendInput?.(agentId);
      else if (key.text === "x" && !finished) props.onStop?.(agentId);
      else if (key.text === "r" && finished) props.onResume?.(agentId);
      else if (key.text === "c" && node.result) props.onCopyResult?.(agentId, node.result);
      else if (node.worktree?.diffStat && (key.text === "d" || key.text === "m" || key.text === "X"))
        props.onWorktree?.(agentId, key.text === "d" ? "diff" : key.text === "m" ? "merge" : "discard");
    },
    { isActive: props.isActive !== false },
  );

  const items = transcript?.items ?? [];
  const maxItems = props.maxItems ?? 12;
  const shown = items.slice(-maxItems);
  const hidden = items.length - shown.length;
  const narrow = columns < 60;
  return (
    <Box flexDirection="column" width={columns}>
      <Text wrap="truncate-end">
        <Text color={theme.accent} bold>
          {breadcrumb(tree, agentId, props.leadLabel)}
        </Text>
        {node ? <Text color={theme.subtle}> · {headerFigures(node, now)}</Text> : null}
      </Text>
      {node ? <AgentTask node={node} tree={tree} leadLabel={props.leadLabel ?? "lead"} /> : null}
      {hidden > 0 ? <Text color={theme.subtle}>{`… ${hidden} earlier items`}</Text> : null}
      {shown.length === 0 ? <Text color={theme.subtle}>(nothing yet)</Text> : null}
      {shown.map((item) => (
        <TranscriptItemView key={item.id} item={item} width={columns} expandHint={props.expandHint} />
      ))}
      <Text color={theme.subtle} wrap="truncate-end">
        {transcriptHints(node, { narrow }).join(" · ")}
      </Text>
    </Box>
  );
}
