import { NyzhiError } from "@nyzhi/config";
import type { OpenedSession } from "@nyzhi/core";
import type { TeamSnapshot } from "../agents/team-snapshot.js";

/** A steering key the session cannot carry out; the message names the setting to change. */
export class AgentSteerError extends NyzhiError {}

/** A teammate of this session (its input goes through the team's mailbox), or a plain subagent. */
type Target = { kind: "teammate"; team: string; name: string } | { kind: "subagent" };

function targetOf(agentId: string, teams: TeamSnapshot | undefined): Target {
  for (const team of teams?.teams ?? []) {
    const member = team.members.find((entry) => entry.agentId === agentId);
    if (member) return { kind: "teammate", team: team.name, name: member.name };
  }
  return { kind: "subagent" };
}

function manager(session: OpenedSession) {
  const found = session.runtime.manager;
  if (!found) throw new AgentSteerError("subagents_off", "Subagents are off (agent.agents.enabled = false).");
  return found;
}

function teamService(session: OpenedSession) {
  const found = session.runtime.teams;
  if (!found)
    throw new AgentSteerError("teams_off", "Teams are off in this session (agent.agents.enabled = false).");
  return found;
}

/** Sends the lead's message to a teammate's inbox, as the lead of its team. */
async function mailTeammate(session: OpenedSession, target: { team: string; name: string }, text: string) {
  const service = teamService(session);
  const lead = await service.identify(session.runtime.context.agent.agentId, target.team);
  await service.send(lead, target.name, text);
}

/**
 * `i` in an agent's transcript: a running subagent gets `text` at its next model request
 * (`send_input`); a teammate gets it in its inbox. Returns what to tell the user.
 */
export async function sendInputToAgent(
  session: OpenedSession,
  teams: TeamSnapshot | undefined,
  agentId: string,
  text: string,
): Promise<string> {
  const target = targetOf(agentId, teams);
  if (target.kind === "teammate") {
    await mailTeammate(session, target, text);
    return `Sent to ${target.name}'s inbox (team ${target.team}).`;
  }
  const sent = manager(session).sendInput(agentId, text);
  return `Sent to ${sent.nickname}: it reads it at its next step.`;
}

/** `r` on a finished agent: runs it again on `text` with its whole conversation (`resume_agent`). */
export async function resumeAgent(
  session: OpenedSession,
  teams: TeamSnapshot | undefined,
  agentId: string,
  text: string,
): Promise<string> {
  const target = targetOf(agentId, teams);
  if (target.kind === "teammate") {
    await mailTeammate(session, target, text);
    return `Sent to ${target.name}'s inbox (team ${target.team}); an idle teammate wakes on it.`;
  }
  const subagents = manager(session);
  if (!subagents.info(agentId)) {
    // Not "Agent with id … not found": say why it is gone and what to do instead.
    throw new AgentSteerError(
      "agent_not_kept",
      "This agent cannot be resumed: a `task` agent ends with its task (it is not kept once it returns), and only the latest finished agents are kept. Ask the lead to run the task again.",
    );
  }
  const resumed = await subagents.resume(agentId, text);
  return `Resumed ${resumed.nickname} (${resumed.status}).`;
}

/**
 * `x`: stops the agent and its descendants only (`close_agent`); the other agents go on. A
 * teammate's loop is stopped as the end of the session would stop it.
 */
export async function stopAgent(
  session: OpenedSession,
  teams: TeamSnapshot | undefined,
  agentId: string,
): Promise<string> {
  const target = targetOf(agentId, teams);
  if (target.kind === "teammate") {
    const subagents = session.runtime.manager;
    for (const child of subagents?.childrenOf(agentId) ?? []) subagents?.close(child);
    const stopped = await teamService(session).stopTeammate(target.team, target.name);
    return stopped
      ? `Stopped ${target.name} (team ${target.team}).`
      : `${target.name} does not run in this process; nothing to stop here.`;
  }
  const closed = manager(session).close(agentId);
  return `Stopped ${closed.nickname} and its subagents.`;
}
