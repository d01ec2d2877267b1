import { type CompactThreadResult, compactThread } from "../compaction/compact-thread.js";
import { contextDirs } from "../compaction/context-dirs.js";
import {
  compactionTarget,
  DEFAULT_COMPACT_THRESHOLD,
  estimateTokens,
} from "../compaction/estimate-tokens.js";
import type { AgentRuntime } from "../runtime/agent-runtime-types.js";

/** Where the lead's next request's tokens go (estimates), for `/context`. */
export interface ContextUsage {
  systemTokens: number;
  toolTokens: number;
  threadTokens: number;
  toolCount: number;
  messageCount: number;
  /** The model's context window, in tokens (`provider.<id>.context_window`, else the registry's); undefined when unknown. */
  contextWindow: number | undefined;
  /** Per cent (0–100, rounded) of the window the next request fills; undefined without a window. */
  percentUsed: number | undefined;
  /** Per cent of the window at which the thread is compacted (`agent.auto_compact_threshold` × 100). */
  compactAtPercent: number;
  /** Tokens above which the thread is compacted; undefined without a window. */
  compactAtTokens: number | undefined;
}

/** How far below the compaction point, in percentage points, the app starts warning. */
export const CONTEXT_WARNING_POINTS = 10;

/** The lead's next request, estimated: system prompt, tool schemas, conversation. */
export function contextUsage(
  runtime: AgentRuntime,
  window: { contextWindow: number | undefined; threshold: number | undefined },
): ContextUsage {
  const agent = runtime.context;
  const systemTokens = estimateTokens(agent.system, []);
  const toolTokens = estimateTokens(JSON.stringify(agent.tools.definitions()), []);
  const threadTokens = estimateTokens(undefined, agent.thread);
  const { contextWindow } = window;
  const threshold = window.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const known = contextWindow !== undefined && contextWindow > 0;
  return {
    systemTokens,
    toolTokens,
    threadTokens,
    toolCount: agent.tools.names().length,
    messageCount: agent.thread.length,
    contextWindow: known ? contextWindow : undefined,
    percentUsed: known
      ? Math.min(100, Math.round(((systemTokens + toolTokens + threadTokens) / contextWindow) * 100))
      : undefined,
    compactAtPercent: Math.round(threshold * 100),
    compactAtTokens: known ? compactionTarget({ contextWindow, threshold }) : undefined,
  };
}

/**
 * Summarises the older part of the lead's thread now (`/compact`), `instructions` guiding the
 * summary; the lead's thread is replaced in place and the full history kept under the project's
 * history folder.
 */
export async function compactLead(
  runtime: AgentRuntime,
  options: { projectRoot: string; sessionId: string; instructions: string | undefined },
): Promise<CompactThreadResult> {
  const agent = runtime.context;
  const result = await compactThread({
    model: agent.model,
    system: agent.system,
    thread: agent.thread,
    instructions: options.instructions,
    historyDir: contextDirs(options.projectRoot).history,
    sessionId: options.sessionId,
  });
  agent.thread.splice(0, agent.thread.length, ...result.thread);
  return result;
}
