import { errorMessage } from "@nyzhi/config";
import type { AgentEvent } from "../events/agent-events.js";
import {
  agentWorktreeDiff,
  finishAgentWorktree,
  type MergeOutcome,
  mergeAgentWorktree,
  removeAgentWorktree,
} from "../worktrees/agent-worktree.js";
import type { WorktreeRecord } from "../worktrees/worktree-records.js";
import { SubagentError } from "./subagent-error.js";

/**
 * The session's agent worktrees whose changes wait for a decision: kept by agent id (also after
 * the agent itself is forgotten, as `task` children are), merged or discarded on request, and
 * listed for the person at the end of a headless run.
 */
export class AgentWorktrees {
  private readonly waiting = new Map<string, WorktreeRecord>();

  constructor(private readonly dataDir: string | undefined) {}

  /** Commits a finished agent's work to its branch; returns the record when changes wait. */
  async settle(
    record: WorktreeRecord,
    emit: (event: AgentEvent) => void,
  ): Promise<WorktreeRecord | undefined> {
    try {
      const ready = await finishAgentWorktree(this.requireDataDir(), record);
      if (ready) this.waiting.set(ready.agentId, ready);
      return ready;
    } catch (error) {
      emit({
        type: "notice",
        agent: { agentId: record.parentId, depth: 0 },
        message: `agent ${record.nickname}'s worktree ${record.path} could not be settled: ${errorMessage(error)}`,
      });
      return undefined;
    }
  }

  /** Worktrees of earlier runs that wait for a decision (found at start). */
  adopt(records: readonly WorktreeRecord[]): void {
    for (const record of records) this.waiting.set(record.agentId, record);
  }

  list(): WorktreeRecord[] {
    return [...this.waiting.values()];
  }

  get(agentId: string): WorktreeRecord | undefined {
    return this.waiting.get(agentId);
  }

  /** What the parent reads in its result: the branch, the diff stat, how to see and decide. */
  describe(record: WorktreeRecord): string {
    return `[worktree] Its changes wait on branch \`${record.branch}\` (worktree ${record.path}): ${record.diffStat}. See them with \`git diff ${record.base.slice(0, 12)} ${record.branch}\`. Nothing reached your tree: merge_agent_changes {"id": "${record.agentId}"} applies them, discard_agent_changes throws them away.`;
  }

  async diff(agentId: string): Promise<string> {
    return agentWorktreeDiff(this.require(agentId));
  }

  /** Merges into the parent's tree; a conflict changes nothing and is returned, not thrown. */
  async merge(agentId: string): Promise<{ record: WorktreeRecord; outcome: MergeOutcome }> {
    const record = this.require(agentId);
    const outcome = await mergeAgentWorktree(this.requireDataDir(), record);
    if (outcome.merged) this.waiting.delete(agentId);
    return { record, outcome };
  }

  async discard(agentId: string): Promise<WorktreeRecord> {
    const record = this.require(agentId);
    await removeAgentWorktree(this.requireDataDir(), record);
    this.waiting.delete(agentId);
    return record;
  }

  private require(agentId: string): WorktreeRecord {
    const record = this.waiting.get(agentId);
    if (!record) {
      throw new SubagentError(
        "worktree_not_found",
        `Agent ${agentId} has no changes waiting: it had no worktree, changed nothing, is still running, or its changes were already merged or discarded.`,
      );
    }
    return record;
  }

  private requireDataDir(): string {
    if (!this.dataDir)
      throw new SubagentError("worktree_unavailable", "agent worktrees need the session's data dir");
    return this.dataDir;
  }
}
