import type { OpenedSession } from "@nyzhi/core";
import { formatCost, formatTokens } from "../status/format-usage.js";

/**
 * What the app prints after it closes, below the last frame: the session's id, how to continue it
 * (`nyz -c` for the newest, `nyz -s <id>` for this one) and its tokens and cost. Nothing for a
 * session with no message (it was not saved, so there is nothing to go back to).
 */
export function exitSummary(session: OpenedSession | undefined): string {
  if (!session || session.record.messages.length === 0) return "";
  const { usage, costUsd } = session.usage();
  const tokens = usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const figures = [`${formatTokens(tokens)} tokens`, formatCost(costUsd) || "$0.000"].join(" · ");
  return [
    `Session ${session.id} saved · ${figures}`,
    `Continue it: nyz -c (the newest here) · nyz -s ${session.id}`,
    "",
  ].join("\n");
}
