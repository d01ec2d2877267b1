import type { StreamLimiter } from "@nyzhi/provider";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { AgentManager, type ChildFactory } from "../subagents/agent-manager.js";
import { TeamService } from "../teams/team-service.js";
import { memberTeamTools } from "../tools/teams/team-tools.js";
import type { CreateAgentRuntimeOptions } from "./agent-runtime-types.js";
import { type ChildFactoryOptions, createChildFactory } from "./child-factory.js";
import { limitResolvedModels } from "./model-resolver.js";

export interface RuntimeAgents {
  /** Absent when `agent.agents.enabled` is false. */
  manager: AgentManager | undefined;
  /** Teams: identities, local teammates, the lead's inbox. Absent without subagents or `team`. */
  teams: TeamService | undefined;
}

/**
 * The lead's subagents (the child factory and the manager that runs them, with the lifecycle
 * hooks) and its teams (teammates are children built by the same factory).
 */
export function buildAgents(
  options: Pick<
    CreateAgentRuntimeOptions,
    "config" | "resolveModel" | "subagentModelOverrides" | "rules" | "projectMemory" | "team"
  >,
  parts: Omit<
    ChildFactoryOptions,
    "config" | "resolveModel" | "sessionOverrides" | "rules" | "projectMemory"
  > & {
    lead: AgentTag;
    mcp: McpSession | undefined;
    streamLimiter: StreamLimiter;
    lifecycle: LifecycleHooks;
    route: (event: AgentEvent) => void;
    dirs: { data: string; teams: string; tasks: string };
  },
): RuntimeAgents & { childFactory: ChildFactory | undefined } {
  const { config } = options;
  const { lead, mcp, lifecycle, route, dirs, streamLimiter, ...factoryParts } = parts;
  let childFactory: ChildFactory | undefined;
  let manager: AgentManager | undefined;
  if (config.agent.agents.enabled) {
    childFactory = createChildFactory({
      ...factoryParts,
      config,
      ...(mcp
        ? { extraToolsFor: (role: Parameters<McpSession["toolsForRole"]>[0]) => mcp.toolsForRole(role) }
        : {}),
      resolveModel: options.resolveModel && limitResolvedModels(options.resolveModel, streamLimiter),
      sessionOverrides: options.subagentModelOverrides ?? {},
      rules: options.rules,
      ...(options.projectMemory ? { projectMemory: options.projectMemory } : {}),
    });
    const agents = config.agent.agents;
    manager = new AgentManager({
      maxThreads: agents.max_threads,
      maxTasks: agents.max_tasks,
      maxRunning: agents.max_running,
      maxQueued: agents.max_queued,
      maxDepth: agents.max_depth,
      emit: route,
      factory: childFactory,
      ...(parts.budgets ? { budgets: parts.budgets } : {}),
      dataDir: dirs.data,
      onForget: (agentId) => parts.agents.delete(agentId),
      onStart: (info) =>
        void lifecycle.subagentStart({
          agent_id: info.id,
          nickname: info.nickname,
          role: info.role,
          depth: info.depth,
        }),
      onEnd: (info) =>
        void lifecycle.subagentEnd({
          agent_id: info.id,
          nickname: info.nickname,
          role: info.role,
          depth: info.depth,
          status: info.status,
          ...(info.result !== undefined ? { result: info.result } : {}),
        }),
    });
  }
  const teams =
    config.agent.agents.enabled || options.team
      ? new TeamService({
          dirs: { teams: dirs.teams, tasks: dirs.tasks },
          lead,
          team: options.team,
          lifecycle,
          memberTools: memberTeamTools,
          emit: route,
          ...(childFactory ? { buildTeammate: teammateBuilder(childFactory, lead) } : {}),
        })
      : undefined;
  return { childFactory, manager, teams };
}

/** Builds teammates with the subagent child factory (role, briefing, model, fenced tools). */
function teammateBuilder(factory: ChildFactory, lead: AgentTag) {
  return async (request: {
    agentId: string;
    name: string;
    roleName: string | undefined;
    model: string | undefined;
  }) => {
    const built = await factory.createChild({
      agentId: request.agentId,
      nickname: request.name,
      depth: lead.depth + 1,
      parentId: lead.agentId,
      roleName: request.roleName,
      model: request.model,
      forkTurns: undefined,
      takePendingMessages: () => [],
    });
    return { context: built.context, role: built.role, model: built.model };
  };
}
