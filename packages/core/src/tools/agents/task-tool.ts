import { z } from "zod";
import { budgetArgument, budgetSpecOf, isolationArgument } from "../../budgets/budget-argument.js";
import { roleLines } from "../../roles/format-role-list.js";
import type { RoleDefinition } from "../../roles/role-definition.js";
import type { AgentManager } from "../../subagents/agent-manager.js";
import { formatStatus, statusWithResult } from "../../subagents/agent-status.js";
import { defineShippedTool, type Tool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { AGENT_MANAGER_SERVICE } from "./lifecycle-tools.js";

/** The roles `task` may start, read at each call so new definitions count without a restart. */
export interface TaskRoleSource {
  get(name: string): RoleDefinition | undefined;
  enabled(): readonly RoleDefinition[];
}

const inputSchema = z.lazy(() =>
  z.object({
    subagent_type: z
      .string()
      .min(1)
      .describe("The role to run the task, from the list in this tool's description."),
    description: z
      .string()
      .min(1)
      .describe(
        "Self-contained instructions: the goal, the relevant files and facts, constraints and the expected output. The subagent sees nothing else of this conversation.",
      ),
    budget: budgetArgument(),
    isolation: isolationArgument(),
  }),
);

// When to delegate is the lead's system prompt's (delegation guidance) and what to put in
// `description` its schema's: said once, not in every request's tool list too (issue 32).
const TASK_DESCRIPTION = `Delegate one task to a specialist subagent and wait for its answer, which is this tool's result. The subagent starts fresh with only \`description\` and its role's tools, and is discarded when it returns. Several \`task\` calls in one response run in parallel. A failed subagent's error is the result; nothing is retried.`;

/**
 * `task(subagent_type, description)` (seed 003): synchronous, ephemeral delegation on top of the
 * `AgentManager` — an isolated child (no briefing, no wisdom, no forked turns) under the same
 * slots, depth limit, role fencing, approvals and accounting as `spawn_agent`; the call waits for
 * it, returns its final text (or its error as an error result), then forgets it. `task` does not
 * mutate by itself (its child's tools are gated one by one), so several calls of one model step run
 * in parallel. The description lists the enabled roles when the model reads it, not when the tool
 * was built, so roles defined later in the session (agents.json) are offered too.
 */
export function createTaskTool(roles: TaskRoleSource): Tool {
  const tool = defineShippedTool({
    name: "task",
    description: TASK_DESCRIPTION,
    inputSchema,
    kind: "agent",
    mutates: false,
    async execute(input, context) {
      const manager = context.services[AGENT_MANAGER_SERVICE] as AgentManager | undefined;
      if (!manager) throw new ToolError("subagents are not available in this session (no agent manager)");
      const name = input.subagent_type.trim();
      if (!roles.get(name)) {
        throw new ToolError(
          `Unknown subagent_type '${name}'. Available types: ${roles
            .enabled()
            .map((role) => role.name)
            .join(", ")}`,
        );
      }
      const spawned = await manager.spawn({
        parent: callerTag(context),
        message: input.description,
        roleName: name,
        isolated: true,
        signal: context.signal,
        budget: budgetSpecOf(input.budget),
        isolation: input.isolation,
        callId: context.callId,
      });
      try {
        const status = await manager.waitUntilFinal(spawned.agentId, context.signal);
        if (status.state === "completed") {
          return {
            output: status.result?.trim() ? status.result : "(the subagent finished without a final message)",
            metadata: {
              agentId: spawned.agentId,
              nickname: spawned.nickname,
              role: spawned.role,
              model: spawned.model,
            },
          };
        }
        if (status.state === "budget_exhausted") {
          throw new ToolError(
            `Subagent '${spawned.role}' (${spawned.nickname}) was stopped: ${statusWithResult(status)}`,
          );
        }
        throw new ToolError(
          `Subagent '${spawned.role}' (${spawned.nickname}) failed: ${formatStatus(status)}`,
        );
      } finally {
        manager.forget(spawned.agentId);
      }
    },
  });
  return {
    ...tool,
    get description() {
      return `${TASK_DESCRIPTION}\n\nSubagent types (subagent_type):\n${roleLines(roles.enabled())}`;
    },
  };
}

const callerTag = (context: ToolContext) => ({
  agentId: context.agent.id,
  depth: context.agent.depth,
  ...(context.agent.role ? { role: context.agent.role } : {}),
  ...(context.agent.nickname ? { nickname: context.agent.nickname } : {}),
});
