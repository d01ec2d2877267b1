import { Box, Text } from "ink";
import { useTheme } from "../theme/theme-context.js";
import type { TokenUsage } from "../transcript/transcript-types.js";
import { formatCost, formatTokens } from "./format-usage.js";
import { type IndexActivityView, indexActivityLabel, useIndexReadyNote } from "./index-activity-label.js";

/**
 * What the app is doing, which decides the key hints: `agents` while the agents panel has the
 * keys, `agent` while an agent's transcript is open there, `steer` while text is typed for an agent.
 */
export type FooterMode = "idle" | "busy" | "approval" | "approval-held" | "agents" | "agent" | "steer";

/** The hints per mode; each names a key the app really binds (the original's named wrong ones). */
export const FOOTER_HINTS: Readonly<Record<FooterMode, string>> = {
  idle: "enter send · shift+enter/ctrl+j newline · / commands · ctrl+k palette · shift+tab mode · ctrl+t agents",
  busy: "esc interrupt · enter queue · ctrl+b background · ctrl+t agents",
  approval: "y allow · a always · n deny · esc deny",
  "approval-held": "ctrl+g answer the request · your keys stay in the input",
  agents: "↑↓ 1–9 select · enter open · esc input · ctrl+t hide",
  agent: "esc back to the tree · ctrl+t hide",
  steer: "enter send to the agent · esc cancel",
};

export interface StatusFooterProps {
  model: string;
  /** `agent.trust.mode`: off, limited, autoedit, full. */
  trust: string;
  mode: FooterMode;
  /** The session's mode (plan, normal, auto-accept edits); Shift+Tab cycles it. */
  sessionMode?: string | undefined;
  /** The lead's thinking level ("off", "high", "on (8000 tokens)"). */
  thinking?: string | undefined;
  usage?: TokenUsage | undefined;
  /** US dollars: the model requests' and the code index's embedder's. */
  costUsd?: number | undefined;
  /** Tokens the code index's remote embedder charged. */
  embeddingTokens?: number | undefined;
  /** The code index's latest activity (`TranscriptState.index`). */
  index?: IndexActivityView | undefined;
  /** ms "index ready" stays after the background build ends. */
  indexReadyShownMs?: number | undefined;
  /** Prompts waiting for the running turn. */
  queued?: number | undefined;
  /** Turns running in the background (Ctrl+B). */
  background?: number | undefined;
  /** How full the lead's context window is; undefined when the model's window is unknown. */
  context?: ContextFill | undefined;
}

/** The lead's next request against the model's window, in per cent (see core's `ContextUsage`). */
export interface ContextFill {
  percent: number;
  /** Where compaction starts. */
  compactAtPercent: number;
  /** Points below `compactAtPercent` from which the footer warns. */
  warnBelowPoints: number;
}

/** "ctx 42%", or, near the compaction point, "ctx 78% · compacts at 85%". */
export function contextLabel(fill: ContextFill): { text: string; warning: boolean } {
  const warning = fill.percent >= fill.compactAtPercent - fill.warnBelowPoints;
  return {
    text: warning ? `ctx ${fill.percent}% · compacts at ${fill.compactAtPercent}%` : `ctx ${fill.percent}%`,
    warning,
  };
}

/**
 * The line under the input: model, trust mode (warning colour when `full`), tokens and cost, how
 * full the context window is (warning colour near the compaction point), the
 * code index's background build on the left; the keys that work right now on the right. On a
 * narrow terminal the hints wrap below. A project too large to index on its own says so on a line
 * of its own (the message says what to run).
 */
export function StatusFooter({
  model,
  trust,
  mode,
  sessionMode,
  thinking,
  usage,
  costUsd = 0,
  embeddingTokens = 0,
  index,
  indexReadyShownMs,
  queued = 0,
  background = 0,
  context,
}: StatusFooterProps) {
  const theme = useTheme();
  const readyNote = useIndexReadyNote(index, indexReadyShownMs);
  const indexLabel = indexActivityLabel(index, { readyNote });
  const tokens = usage
    ? usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
    : 0;
  const cost = formatCost(costUsd);
  const fill = context ? contextLabel(context) : undefined;
  const footer = (
    <Box flexWrap="wrap" justifyContent="space-between" columnGap={2}>
      <Text wrap="truncate-end">
        <Text color={theme.accent}>{model}</Text>
        <Text color={theme.subtle}> · </Text>
        <Text color={trust === "full" ? theme.warning : theme.muted}>trust {trust}</Text>
        {sessionMode && sessionMode !== "normal" ? (
          <Text color={sessionMode === "plan" ? theme.warning : theme.info}> · {sessionMode}</Text>
        ) : null}
        {thinking && thinking !== "off" ? <Text color={theme.muted}> · thinking {thinking}</Text> : null}
        {tokens > 0 ? <Text color={theme.muted}> · {formatTokens(tokens)} tokens</Text> : null}
        {embeddingTokens > 0 ? (
          <Text color={theme.muted}> · {formatTokens(embeddingTokens)} embedding tokens</Text>
        ) : null}
        {cost ? <Text color={theme.muted}> · {cost}</Text> : null}
        {fill ? <Text color={fill.warning ? theme.warning : theme.muted}> · {fill.text}</Text> : null}
        {queued > 0 ? <Text color={theme.info}> · {queued} queued</Text> : null}
        {background > 0 ? <Text color={theme.info}> · {background} in background (/bg)</Text> : null}
        {indexLabel && index?.phase !== "skipped" ? <Text color={theme.info}> · {indexLabel}</Text> : null}
      </Text>
      <KeyHints hints={FOOTER_HINTS[mode]} color={theme.subtle} />
    </Box>
  );
  if (!indexLabel || index?.phase !== "skipped") return footer;
  return (
    <Box flexDirection="column">
      {footer}
      <Text color={theme.warning}>{indexLabel}</Text>
    </Box>
  );
}

/**
 * The key hints, each kept whole on a line ("ctrl+t agents", never "ctrl+t" / "agents"): on a
 * narrow terminal the line breaks after a " · " only.
 */
function KeyHints({ hints, color }: { hints: string; color: string }) {
  const items = hints.split(" · ");
  return (
    <Box flexWrap="wrap">
      {items.map((item, index) => (
        <Text key={item} color={color} wrap="truncate-end">
          {index < items.length - 1 ? `${item} · ` : item}
        </Text>
      ))}
    </Box>
  );
}
