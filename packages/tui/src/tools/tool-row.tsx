import { Box, Text } from "ink";
import { memo } from "react";
import { DIFF_TOOLS } from "../diff/diff-from-tool.js";
import type { Theme } from "../theme/theme.js";
import { useTheme } from "../theme/theme-context.js";
import type { AgentLabel, ToolItem } from "../transcript/transcript-types.js";
import { readableToolOutput } from "./describe-agent-tools.js";
import { formatDuration } from "./format-duration.js";
import { useRefreshTick } from "./refresh-clock.js";
import { Spinner } from "./spinner.js";

/** Output lines shown under a running tool (its last lines) and a finished one (its first). */
export const RUNNING_PREVIEW_LINES = 5;
export const DONE_PREVIEW_LINES = 3;
/** An expanded row still stops here, so one huge output cannot flood the terminal. */
const EXPANDED_MAX_LINES = 200;

export interface ToolRowProps {
  item: ToolItem;
  /** The clock for the running time (ms since epoch); default `Date.now`. */
  now?: (() => number) | undefined;
}

function agentPrefix(agent: AgentLabel): string {
  return agent.depth > 0 ? `[${agent.nickname ?? agent.role ?? agent.agentId}] ` : "";
}

function outputLines(output: string): string[] {
  const lines = output.replace(/\n+$/, "").split("\n");
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}

/** The lines to show under the row, and how many were left out. */
function preview(item: ToolItem): { lines: string[]; hidden: number; fromEnd: boolean } {
  if (item.status === "denied")
    return { lines: item.reason ? [item.reason.split("\n")[0]!] : [], hidden: 0, fromEnd: false };
  if (item.status === "pending" || item.status === "awaiting-approval")
    return { lines: [], hidden: 0, fromEnd: false };
  const lines = outputLines(readableToolOutput(item.name, item.output));
  if (item.status === "done" && DIFF_TOOLS.has(item.name))
    return { lines: lines.slice(0, 1), hidden: 0, fromEnd: false };
  if (item.expanded) {
    const shown = lines.slice(-EXPANDED_MAX_LINES);
    return { lines: shown, hidden: lines.length - shown.length, fromEnd: true };
  }
  const fromEnd = item.status !== "done";
  const count = item.status === "running" ? RUNNING_PREVIEW_LINES : DONE_PREVIEW_LINES;
  const shown = fromEnd ? lines.slice(-count) : lines.slice(0, count);
  return { lines: shown, hidden: lines.length - shown.length, fromEnd };
}

function statusIcon(item: ToolItem, theme: Theme, tick: number) {
  switch (item.status) {
    case "running":
      return <Spinner tick={tick} />;
    case "pending":
      return <Text color={theme.subtle}>◌</Text>;
    case "awaiting-approval":
      return <Text color={theme.warning}>?</Text>;
    case "done":
      return <Text color={theme.success}>✓</Text>;
    case "failed":
      return <Text color={theme.danger}>✗</Text>;
    case "denied":
      return <Text color={theme.danger}>⊘</Text>;
  }
}

function statusNote(item: ToolItem, elapsedMs: number): string {
  switch (item.status) {
    case "running":
      return formatDuration(elapsedMs);
    case "awaiting-approval":
      return "awaiting approval";
    case "denied":
      return "denied";
    case "failed":
      return item.durationMs === undefined
        ? (item.reason ?? "failed")
        : `failed · ${formatDuration(item.durationMs)}`;
    case "done":
      return item.durationMs === undefined ? "" : formatDuration(item.durationMs);
    case "pending":
      return "";
  }
}

/**
 * One tool call: icon (a spinner only while it runs), the agent's nickname for a subagent's
 * call, the tool's name, a one-line summary of its arguments, its state and time, then a few
 * lines of output (the last ones while running, the first once done; all when expanded).
 */
export const ToolRow = memo(function ToolRow({ item, now = Date.now }: ToolRowProps) {
  const theme = useTheme();
  // On the app's refresh clock, so running rows and the agents panel change in one frame.
  const tick = useRefreshTick(item.status === "running");
  const note = statusNote(item, now() - item.startedAt);
  const shown = preview(item);
  const noteColour = item.status === "failed" || item.status === "denied" ? theme.danger : theme.subtle;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {statusIcon(item, theme, tick)} <Text color={theme.info}>{agentPrefix(item.agent)}</Text>
        <Text bold>{item.name}</Text>
        {item.summary ? <Text color={theme.muted}> {item.summary}</Text> : null}
        {note ? <Text color={noteColour}> · {note}</Text> : null}
      </Text>
      {shown.fromEnd && shown.hidden > 0 ? (
        <Text color={theme.subtle}>{`  │ … ${shown.hidden} earlier lines`}</Text>
      ) : null}
      {shown.lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: output lines have no identity but their position
        <Text key={index} color={theme.subtle} wrap="truncate-end">
          {`  │ ${line}`}
        </Text>
      ))}
      {!shown.fromEnd && shown.hidden > 0 ? (
        <Text color={theme.subtle}>{`  │ … +${shown.hidden} lines`}</Text>
      ) : null}
    </Box>
  );
});
