import { NyzhiError } from "@nyzhi/config";
import type { AgentManager, SpawnedAgent, SpawnRequest, WaitRequest } from "../subagents/agent-manager.js";
import type { AgentStatus } from "../subagents/agent-status.js";
import type { TeamTask } from "../teams/task-board.js";
import type { TeamService } from "../teams/team-service.js";
import { readTeamSnapshot, type TeamSnapshot } from "../teams/team-snapshot.js";
import { TeamStore } from "../teams/team-store.js";

/** A steering request the session cannot carry out; the message names the setting to change. */
export class AgentSteerError extends NyzhiError {}

/**
 * The session's agents as a host drives them (the agents panel's keys, `/team`, Esc): send to,
 * resume and stop any agent — a subagent through its manager, a teammate through its team's
 * mailbox —, and read the teams' state. Every method names the agent by its `agentId`.
 */
export interface SessionAgents {
  /** Whether subagents are on (`agent.agents.enabled`). */
  readonly enabled: boolean;
  /** The teams the session takes part in (members, states, unread mail, the board); undefined when none. */
  teams(): Promise<TeamSnapshot | undefined>;
  /** A team's tasks (not deleted ones), for `/team`. */
  tasks(team: string): Promise<TeamTask[]>;
  /** The teams' config files (`/teams-config`): the running service's store, else one on `dirs`. */
  teamStore(dirs: ConstructorParameters<typeof TeamStore>[0]): TeamStore;
  /** `text` reaches the agent at its next step (a teammate: in its inbox). Returns what to tell the user. */
  send(agentId: string, text: string): Promise<string>;
  /** Runs a finished agent again on `text` with its whole conversation (a teammate: its inbox wakes it). */
  resume(agentId: string, text: string): Promise<string>;
  /** Stops the agent and its descendants only; the others go on. */
  stop(agentId: string): Promise<string>;
  /** Stops every child of the lead (the user interrupted the turn). */
  stopAll(): void;
  /**
   * Starts a subagent of the lead, as the lead's `spawn_agent` does (role, model, budget,
   * isolation; it may wait in line for a slot). Its events reach the host's event sink.
   */
  spawn(request: Omit<SpawnRequest, "parent">): Promise<SpawnedAgent>;
  /**
   * Waits for the lead's children (`ids`, else every one still running or whose end the lead has
   * not heard), as the lead's `wait` tool does: each one's final status, and whether it timed out.
   */
  wait(
    request?: Omit<WaitRequest, "callerId">,
  ): Promise<{ status: Record<string, string>; timed_out: boolean }>;
  /** Waits until one agent of the lead's is final, and returns its status (its answer when completed). */
  finish(agentId: string, signal?: AbortSignal): Promise<AgentStatus>;
}

type Target = { kind: "teammate"; team: string; name: string } | { kind: "subagent" };

/** What the agent verbs work on: the lead's id, its subagent manager and the team service (each absent when off). */
export interface SessionAgentParts {
  leadId: string;
  manager: AgentManager | undefined;
  teams: TeamService | undefined;
}

/** The session's agent verbs (see `SessionAgents`); `openSession` builds them, test doubles of a session may too. */
export function sessionAgents(runtime: SessionAgentParts): SessionAgents {
  const { leadId } = runtime;
  const manager = () => {
    if (!runtime.manager)
      throw new AgentSteerError("subagents_off", "Subagents are off (agent.agents.enabled = false).");
    return runtime.manager;
  };
  const teamService = () => {
    if (!runtime.teams)
      throw new AgentSteerError("teams_off", "Teams are off in this session (agent.agents.enabled = false).");
    return runtime.teams;
  };
  const teams = async (): Promise<TeamSnapshot | undefined> => {
    const service = runtime.teams;
    if (!service) return undefined;
    const names = service.teamNames();
    if (names.length === 0 && service.teammates().length === 0) return undefined;
    const snapshot = await readTeamSnapshot(service, { teams: names });
    return snapshot.teams.length > 0 ? snapshot : undefined;
  };
  const targetOf = async (agentId: string): Promise<Target> => {
    const local = runtime.teams?.teammates().find((teammate) => teammate.agentId === agentId);
    if (local) return { kind: "teammate", team: local.team, name: local.name };
    for (const team of (await teams())?.teams ?? []) {
      const member = team.members.find((entry) => entry.agentId === agentId);
      if (member) return { kind: "teammate", team: team.name, name: member.name };
    }
    return { kind: "subagent" };
  };
  /** Sends the lead's message to a teammate's inbox, as the lead of its team. */
  const mail = async (target: { team: string; name: string }, text: string) => {
    const service = teamService();
    await service.send(await service.identify(leadId, target.team), target.name, text);
  };
  return {
    enabled: runtime.manager !== undefined,
    spawn: (request) => manager().spawn({ ...request, parent: { agentId: leadId, depth: 0 } }),
    wait: (request = {}) => manager().wait({ ...request, callerId: leadId }),
    finish: (agentId, signal) => manager().waitUntilFinal(agentId, signal),
    teams,
    tasks: async (team) =>
      (await (runtime.teams?.board.list(team) ?? Promise.resolve([])).catch(() => [])).filter(
        (task) => task.status !== "deleted",
      ),
    teamStore: (dirs) => runtime.teams?.store ?? new TeamStore(dirs),
    async send(agentId, text) {
      const target = await targetOf(agentId);
      if (target.kind === "teammate") {
        await mail(target, text);
        return `Sent to ${target.name}'s inbox (team ${target.team}).`;
      }
      const sent = manager().sendInput(agentId, text);
      return `Sent to ${sent.nickname}: it reads it at its next step.`;
    },
    async resume(agentId, text) {
      const target = await targetOf(agentId);
      if (target.kind === "teammate") {
        await mail(target, text);
        return `Sent to ${target.name}'s inbox (team ${target.team}); an idle teammate wakes on it.`;
      }
      const subagents = manager();
      if (!subagents.info(agentId)) {
        // Not "Agent with id … not found": say why it is gone and what to do instead.
        throw new AgentSteerError(
          "agent_not_kept",
          "This agent cannot be resumed: a `task` agent ends with its task (it is not kept once it returns), and only the latest finished agents are kept. Ask the lead to run the task again.",
        );
      }
      const resumed = await subagents.resume(agentId, text);
      return `Resumed ${resumed.nickname} (${resumed.status}).`;
    },
    async stop(agentId) {
      const target = await targetOf(agentId);
      if (target.kind === "teammate") {
        for (const child of runtime.manager?.childrenOf(agentId) ?? []) runtime.manager?.close(child);
        const stopped = await teamService().stopTeammate(target.team, target.name);
        return stopped
          ? `Stopped ${target.name} (team ${target.team}).`
          : `${target.name} does not run in this process; nothing to stop here.`;
      }
      const closed = manager().close(agentId);
      return `Stopped ${closed.nickname} and its subagents.`;
    },
    stopAll() {
      for (const id of runtime.manager?.childrenOf(leadId) ?? []) {
        try {
          runtime.manager?.close(id);
        } catch {
          // Already gone (forgotten after it finished): nothing to stop.
        }
      }
    },
  };
}
