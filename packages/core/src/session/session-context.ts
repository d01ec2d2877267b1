import { type CompactThreadResult, compactThread } from "../compaction/compact-thread.js";
import { contextDirs } from "../compaction/context-dirs.js";
import { estimateTokens } from "../compaction/estimate-tokens.js";
import type { AgentRuntime } from "../runtime/agent-runtime-types.js";

/** Where the lead's next request's tokens go (estimates), for `/context`. */
export interface ContextUsage {
  systemTokens: number;
  toolTokens: number;
  threadTokens: number;
  toolCount: number;
  messageCount: number;
}

/** The lead's next request, estimated: system prompt, tool schemas, conversation. */
export function contextUsage(runtime: AgentRuntime): ContextUsage {
  const agent = runtime.context;
  return {
    systemTokens: estimateTokens(agent.system, []),
    toolTokens: estimateTokens(JSON.stringify(agent.tools.definitions()), []),
    threadTokens: estimateTokens(undefined, agent.thread),
    toolCount: agent.tools.names().length,
    messageCount: agent.thread.length,
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
