import { Box, Text } from "ink";
import { memo } from "react";
import { DiffView } from "../diff/diff-view.js";
import { Markdown } from "../markdown/markdown.js";
import { formatCost, formatTokens } from "../status/format-usage.js";
import type { Theme } from "../theme/theme.js";
import { useTheme } from "../theme/theme-context.js";
import { formatDuration } from "../tools/format-duration.js";
import { ToolRow } from "../tools/tool-row.js";
import { HangingText } from "./hanging-text.js";
import { HeaderView } from "./header-view.js";
import type { AgentLabel, SubagentItem, TranscriptItem, TurnFooterItem } from "./transcript-types.js";

export interface TranscriptItemViewProps {
  item: TranscriptItem;
  /** Columns available. */
  width: number;
  /** Appended to collapsed diffs and outputs: the app's expand key, e.g. "ctrl+o to expand". */
  expandHint?: string | undefined;
}

function tag(agent: AgentLabel | undefined): string {
  return agent && agent.depth > 0 ? `[${agent.nickname ?? agent.role ?? agent.agentId}] ` : "";
}

function subagentLine(item: SubagentItem): string {
  const who = `${item.nickname || "subagent"} (${item.role})`;
  if (item.event === "spawned") return `⊕ ${who} started · ${item.detail}`;
  if (item.event === "queued") return `… ${item.role} task ${item.detail}`;
  return `⊖ ${who} ${item.detail}`;
}

function footerLine(item: TurnFooterItem): string {
  const tokens =
    item.usage.inputTokens +
    item.usage.outputTokens +
    item.usage.cacheReadTokens +
    item.usage.cacheWriteTokens;
  const parts = [
    `${item.steps} step${item.steps === 1 ? "" : "s"}`,
    `${formatTokens(tokens)} tokens`,
    formatCost(item.costUsd),
    formatDuration(item.durationMs),
  ].filter(Boolean);
  const ending =
    item.reason === "completed" ? "" : item.reason === "aborted" ? "interrupted · " : `${item.reason} · `;
  return `─ ${ending}${parts.join(" · ")}`;
}

function ThinkingView({ text, expanded, theme }: { text: string; expanded: boolean; theme: Theme }) {
  const lines = text.trim().split("\n");
  if (expanded) {
    return (
      <Box flexDirection="column">
        <Text color={theme.subtle} italic>
          ∴ thinking
        </Text>
        <Box paddingLeft={2}>
          <Text color={theme.subtle} italic>
            {text.trim()}
          </Text>
        </Box>
      </Box>
    );
  }
  return (
    <Text color={theme.subtle} italic wrap="truncate-end">
      ∴ thinking · {lines.at(-1) ?? ""}
      {lines.length > 1 ? ` (+${lines.length - 1} lines)` : ""}
    </Text>
  );
}

/**
 * One transcript item. Memoized on the item object: the reducer replaces only items that
 * change, so a streaming message re-renders alone while finished rows are skipped.
 */
export const TranscriptItemView = memo(function TranscriptItemView({
  item,
  width,
  expandHint,
}: TranscriptItemViewProps) {
  const theme = useTheme();
  switch (item.kind) {
    case "header":
      return <HeaderView header={item.header} />;
    case "user":
      return (
        <Box marginTop={1} flexDirection="column">
          <Box>
            <Text color={theme.accent}>› </Text>
            <Box flexShrink={1}>
              <Text bold>{item.text}</Text>
            </Box>
          </Box>
          {item.chips?.length ? <Text color={theme.muted}>{`  ${item.chips.join(" ")}`}</Text> : null}
        </Box>
      );
    case "assistant":
      return (
        <Box marginTop={1}>
          <Text color={theme.accent}>{item.continued ? "  " : "● "}</Text>
          <Markdown text={item.text} width={Math.max(10, width - 2)} />
        </Box>
      );
    case "thinking":
      return <ThinkingView text={item.text} expanded={item.expanded} theme={theme} />;
    case "tool":
      return <ToolRow item={item} />;
    case "diff":
      return (
        <Box paddingLeft={2}>
          <DiffView
            diff={item.diff}
            path={item.path}
            created={item.created}
            expanded={item.expanded}
            expandHint={expandHint}
          />
        </Box>
      );
    case "subagent":
      return (
        <Box paddingLeft={Math.max(0, item.depth - 1) * 2}>
          <Text color={theme.info} wrap="truncate-end">
            {subagentLine(item)}
          </Text>
        </Box>
      );
    case "retry":
      return (
        <Text color={theme.warning} wrap="truncate-end">
          ↻ {tag(item.agent)}
          {item.message}
        </Text>
      );
    case "notice":
      return (
        <HangingText
          marker={`※ ${tag(item.agent)}`}
          text={item.message}
          color={item.tone === "warning" ? theme.warning : theme.muted}
        />
      );
    case "error":
      return <HangingText marker={`✗ ${tag(item.agent)}`} text={item.message} color={theme.danger} />;
    case "turn-footer":
      return (
        <Text color={theme.subtle} wrap="truncate-end">
          {footerLine(item)}
        </Text>
      );
  }
});
