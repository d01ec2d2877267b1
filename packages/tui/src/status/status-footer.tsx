import { Box, Text } from "ink";
import { useTheme } from "../theme/theme-context.js";
import type { TokenUsage } from "../transcript/transcript-types.js";
import { formatCost, formatTokens } from "./format-usage.js";

/**
 * What the app is doing, which decides the key hints: `agents` while the agents panel has the
 * keys, `agent` while an agent's transcript is open there, `steer` while text is typed for an agent.
 */
export type FooterMode = "idle" | "busy" | "approval" | "agents" | "agent" | "steer";

/** The hints per mode; each names a key the app really binds (the original's named wrong ones). */
export const FOOTER_HINTS: Readonly<Record<FooterMode, string>> = {
  idle: "enter send · shift+enter newline · / commands · ctrl+k palette · ctrl+t agents",
  busy: "esc interrupt · enter queue · ctrl+b background · ctrl+t agents",
  approval: "y allow · a always · n deny",
  agents: "↑↓ 1–9 select · enter open · esc input · ctrl+t hide",
  agent: "esc back to the tree · ctrl+t hide",
  steer: "enter send to the agent · esc cancel",
};

export interface StatusFooterProps {
  model: string;
  /** `agent.trust.mode`: off, limited, autoedit, full. */
  trust: string;
  mode: FooterMode;
  usage?: TokenUsage | undefined;
  costUsd?: number | undefined;
  /** Prompts waiting for the running turn. */
  queued?: number | undefined;
  /** Turns running in the background (Ctrl+B). */
  background?: number | undefined;
}

/**
 * The line under the input: model, trust mode (warning colour when `full`), tokens and cost on
 * the left; the keys that work right now on the right. On a narrow terminal the hints wrap below.
 */
export function StatusFooter({
  model,
  trust,
  mode,
  usage,
  costUsd = 0,
  queued = 0,
  background = 0,
}: StatusFooterProps) {
  const theme = useTheme();
  const tokens = usage
    ? usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
    : 0;
  const cost = formatCost(costUsd);
  return (
    <Box flexWrap="wrap" justifyContent="space-between" columnGap={2}>
      <Text wrap="truncate-end">
        <Text color={theme.accent}>{model}</Text>
        <Text color={theme.subtle}> · </Text>
        <Text color={trust === "full" ? theme.warning : theme.muted}>trust {trust}</Text>
        {tokens > 0 ? <Text color={theme.muted}> · {formatTokens(tokens)} tokens</Text> : null}
        {cost ? <Text color={theme.muted}> · {cost}</Text> : null}
        {queued > 0 ? <Text color={theme.info}> · {queued} queued</Text> : null}
        {background > 0 ? <Text color={theme.info}> · {background} in background (/bg)</Text> : null}
      </Text>
      <Text color={theme.subtle}>{FOOTER_HINTS[mode]}</Text>
    </Box>
  );
}
