import { z } from "zod";
import { budgetArgument, budgetSpecOf, isolationArgument } from "../../budgets/budget-argument.js";
import { type RoleSummary, roleLines } from "../../roles/format-role-list.js";
import { type AgentManager, SubagentError } from "../../subagents/agent-manager.js";
import { defineShippedTool, type Tool } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";

/** Where the runtime puts the session's AgentManager in `ToolContext.services`. */
export const AGENT_MANAGER_SERVICE = "agentManager";

/** The names of the five lifecycle tools (not offered to agents at max depth). */
export const LIFECYCLE_TOOL_NAMES = [
  "spawn_agent",
  "send_input",
  "wait",
  "close_agent",
  "resume_agent",
] as const;

/**
 * A subagent may steer, close or resume only its own children; the lead may address any agent of
 * the session. Unknown ids fall through to the manager's own "not found" error.
 */
function ownedAgent(context: ToolContext, id: string): string {
  const info = managerOf(context).info(id);
  if (info && context.agent.depth > 0 && info.parentId !== context.agent.id) {
    throw new SubagentError(
      "subagent_not_owned",
      `Agent ${id} (${info.nickname}) is not one of your subagents.`,
    );
  }
  return id;
}

function managerOf(context: ToolContext): AgentManager {
  const manager = context.services[AGENT_MANAGER_SERVICE] as AgentManager | undefined;
  if (!manager) throw new Error("subagents are not available in this session (no agent manager)");
  return manager;
}

const callerTag = (context: ToolContext) => ({
  agentId: context.agent.id,
  depth: context.agent.depth,
  ...(context.agent.role ? { role: context.agent.role } : {}),
  ...(context.agent.nickname ? { nickname: context.agent.nickname } : {}),
});

/**
 * `spawn_agent`, its description listing `roles`. Given a function, the list is read each time the
 * model is offered the tool, so roles defined during the session (agents.json) appear at once.
 */
export function createSpawnAgentTool(roles: readonly RoleSummary[] | (() => readonly RoleSummary[])): Tool {
  const describe = () =>
    `Start a subagent in the background on a self-contained task and return at once with its id. It gets a briefing of your recent changes, todos and conversation. Spawn several in one turn to work in parallel, then call \`wait\` to collect their results.\n\nRoles (agent_type):\n${roleLines(typeof roles === "function" ? roles() : roles)}`;
  const tool = defineShippedTool({
    name: "spawn_agent",
    description: describe(),
    inputSchema: z.lazy(() =>
      z.object({
        message: z
          .string()
          .describe("The task: what to do, the expected outcome, constraints, relevant files."),
        agent_type: z.string().optional().describe("Role name; default `default`."),
        model: z
          .string()
          .optional()
          .describe(
            "Model for this agent (`provider/model` or a model id); default from the role or config.",
          ),
        fork_turns: z
          .union([z.number().int().min(1), z.literal("all")])
          .optional()
          .describe(
            "Copy your last N turns (or `all`) into the agent's history, when it needs your full context.",
          ),
        budget: budgetArgument(),
        isolation: isolationArgument(),
      }),
    ),
    kind: "agent",
    mutates: false,
    async execute(input, context) {
      const spawned = await managerOf(context).spawn({
        parent: callerTag(context),
        message: input.message,
        roleName: input.agent_type,
        model: input.model,
        forkTurns: input.fork_turns,
        budget: budgetSpecOf(input.budget),
        isolation: input.isolation,
        callId: context.callId,
      });
      const output: Record<string, unknown> = {
        agent_id: spawned.agentId,
        agent_nickname: spawned.nickname,
        role: spawned.role,
      };
      if (spawned.queued) {
        output.status = "queued";
        output.note = "waiting for a slot (agent limits); it starts when one frees — `wait` covers it";
      }
      if (spawned.unknownRole)
        output.note = `unknown role '${input.agent_type}': running with the default role`;
      return { output: JSON.stringify(output), metadata: { model: spawned.model } };
    },
  });
  if (typeof roles !== "function") return tool;
  return {
    ...tool,
    get description() {
      return describe();
    },
  };
}

export const sendInputTool = defineShippedTool({
  name: "send_input",
  description:
    "Send a follow-up message to a running subagent; it sees the message before its next model request.",
  inputSchema: z.lazy(() => z.object({ id: z.string(), message: z.string() })),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const sent = managerOf(context).sendInput(ownedAgent(context, input.id), input.message);
    return JSON.stringify({ status: sent.status, agent_nickname: sent.nickname });
  },
});

export const waitTool = defineShippedTool({
  name: "wait",
  description:
    "Wait for subagents to finish. `ids` empty means your subagents still running or whose end you have not been told yet (not those of earlier prompts already reported). mode `any` (default) returns when any finishes (each completion is reported to you once); `all` when all have. timeout_ms 10000-300000, default 30000.",
  inputSchema: z.lazy(() =>
    z.object({
      ids: z.array(z.string()).optional(),
      timeout_ms: z.number().optional(),
      mode: z.enum(["any", "all"]).optional(),
    }),
  ),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const result = await managerOf(context).wait({
      callerId: context.agent.id,
      ...(input.ids ? { ids: input.ids } : {}),
      ...(input.timeout_ms !== undefined && Number.isFinite(input.timeout_ms)
        ? { timeoutMs: input.timeout_ms }
        : {}),
      ...(input.mode ? { mode: input.mode } : {}),
      signal: context.signal,
    });
    return JSON.stringify(result);
  },
});

export const closeAgentTool = defineShippedTool({
  name: "close_agent",
  description: "Stop a subagent and all of its own subagents, freeing their slots.",
  inputSchema: z.lazy(() => z.object({ id: z.string() })),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const closed = managerOf(context).close(ownedAgent(context, input.id));
    return JSON.stringify({ status: closed.status, agent_nickname: closed.nickname });
  },
});

export const resumeAgentTool = defineShippedTool({
  name: "resume_agent",
  description:
    "Give a finished (completed, errored or closed) subagent a new message; it continues with its whole earlier conversation.",
  inputSchema: z.lazy(() => z.object({ id: z.string(), message: z.string() })),
  kind: "agent",
  mutates: false,
  async execute(input, context) {
    const resumed = await managerOf(context).resume(ownedAgent(context, input.id), input.message);
    return JSON.stringify({ status: resumed.status, agent_nickname: resumed.nickname });
  },
});

/** The five lifecycle tools, with spawn_agent describing the given roles (or those a function returns). */
export function lifecycleTools(roles: readonly RoleSummary[] | (() => readonly RoleSummary[])): Tool[] {
  return [createSpawnAgentTool(roles), sendInputTool, waitTool, closeAgentTool, resumeAgentTool];
}
