import { z } from "zod";
import type { AgentManager } from "../../subagents/agent-manager.js";
import { SubagentError } from "../../subagents/subagent-error.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { AGENT_MANAGER_SERVICE } from "./lifecycle-tools.js";

function managerOf(context: ToolContext): AgentManager {
  const manager = context.services[AGENT_MANAGER_SERVICE] as AgentManager | undefined;
  if (!manager) throw new ToolError("subagents are not available in this session (no agent manager)");
  return manager;
}

/** The waiting worktree of `id`; a subagent may decide only on its own children's changes. */
function ownedWorktree(context: ToolContext, id: string) {
  const record = managerOf(context).worktrees.get(id);
  if (record && context.agent.depth > 0 && record.parentId !== context.agent.id) {
    throw new SubagentError(
      "subagent_not_owned",
      `Agent ${id} (${record.nickname}) is not one of your subagents.`,
    );
  }
  return id;
}

const inputSchema = z.lazy(() =>
  z.object({ id: z.string().min(1).describe("The agent's id (agent_id from spawn_agent or task).") }),
);

/**
 * `merge_agent_changes`: applies a finished worktree agent's changes to its parent's tree
 * (uncommitted), by a three-way merge from the state the agent started from. Mutating, so the
 * trust mode and approvals apply. A conflict changes nothing and names the files.
 */
export const mergeAgentChangesTool = defineShippedTool({
  name: "merge_agent_changes",
  description:
    "Apply the changes a subagent made in its own git worktree (isolation: worktree) to your working tree, as uncommitted changes. If they conflict with changes made meanwhile, nothing is changed and the conflicting files are listed: both sides stay as they were. Merged, its worktree and branch are removed.",
  inputSchema,
  kind: "edit",
  mutates: true,
  preview: (input) => `merge the changes of agent ${input.id}`,
  async execute(input, context) {
    const manager = managerOf(context);
    const { record, outcome } = await manager.worktrees.merge(ownedWorktree(context, input.id));
    if (!outcome.merged) {
      throw new ToolError(
        `The changes of ${record.nickname} (branch ${record.branch}) conflict with your tree in: ${outcome.conflicts.join(", ")}. Nothing was changed: your files and the branch (worktree ${record.path}) are as they were. See them with \`git diff ${record.base.slice(0, 12)} ${record.branch}\`, apply them by hand, or discard_agent_changes.`,
      );
    }
    return {
      output: `Merged the changes of ${record.nickname} into ${record.parentTree}: ${outcome.files.join(", ") || "(no files)"}. They are uncommitted; its worktree and branch ${record.branch} are removed.`,
      metadata: { files: outcome.files, branch: record.branch },
    };
  },
});

/** `discard_agent_changes`: removes a worktree agent's worktree and branch, its changes unused. */
export const discardAgentChangesTool = defineShippedTool({
  name: "discard_agent_changes",
  description:
    "Throw away the changes a subagent made in its own git worktree: its worktree and branch are removed; your tree is not touched.",
  inputSchema,
  kind: "edit",
  mutates: true,
  preview: (input) => `discard the changes of agent ${input.id}`,
  async execute(input, context) {
    const record = await managerOf(context).worktrees.discard(ownedWorktree(context, input.id));
    return `Discarded the changes of ${record.nickname}: worktree ${record.path} and branch ${record.branch} removed.`;
  },
});
