import type { MemberState, TaskBoardSummary, TeammateSnapshot, TeamSummary } from "../events/team-view.js";
import type { Mailbox } from "./mailbox.js";
import type { TaskBoard } from "./task-board.js";
import type { TeamStore } from "./team-store.js";
import { leadName } from "./team-types.js";

export type { TaskBoardSummary, TeammateSnapshot, TeamSummary };

/**
 * What the panel shows of teams: read from the team files (members, inboxes, task board) and the
 * teammates this process runs. Hosts read it once (`session.agents.teams()`) and then follow the
 * session's `team-state` events (`team-state-events.ts`), which carry it after each change.
 */
export interface TeamSnapshot {
  teams: readonly TeamSummary[];
}

/** The part of core's `TeamService` the snapshot reads (a `TeamService` is one). */
export interface TeamSource {
  teammates(): { team: string; name: string; state: string; agentId: string }[];
  readonly store: Pick<TeamStore, "find">;
  readonly mailbox: Pick<Mailbox, "unreadCount">;
  readonly board: Pick<TaskBoard, "list">;
}

const MEMBER_STATES: readonly string[] = ["pending", "working", "idle", "shutdown", "stopped"];

function memberState(state: string | undefined): MemberState {
  return state !== undefined && MEMBER_STATES.includes(state) ? (state as MemberState) : "pending";
}

async function summarizeBoard(source: TeamSource, team: string): Promise<TaskBoardSummary> {
  const tasks = await source.board.list(team).catch(() => []);
  const summary = { open: 0, claimed: 0, done: 0 };
  for (const task of tasks) {
    if (task.status === "deleted") continue;
    if (task.status === "completed") summary.done += 1;
    else if (task.owner) summary.claimed += 1;
    else summary.open += 1;
  }
  return summary;
}

async function readTeam(
  source: TeamSource,
  team: string,
  local: ReturnType<TeamSource["teammates"]>,
): Promise<TeamSummary | undefined> {
  const config = await source.store.find(team).catch(() => undefined);
  if (!config) return undefined;
  const unread = (name: string) => source.mailbox.unreadCount(team, name).catch(() => 0);
  const members = await Promise.all(
    config.members
      .filter((member) => member.agentType !== "leader")
      .map(async (member): Promise<TeammateSnapshot> => {
        const running = local.find((teammate) => teammate.team === team && teammate.name === member.name);
        return {
          name: member.name,
          agentId: running?.agentId ?? member.agentId ?? undefined,
          role: member.role,
          state: memberState(running?.state ?? member.state),
          unread: await unread(member.name),
        };
      }),
  );
  const [board, leadUnread] = await Promise.all([summarizeBoard(source, team), unread(leadName(config))]);
  return { name: team, members, board, leadUnread };
}

/**
 * Reads the teams the session takes part in: those its teammates belong to, plus `teams` (the one
 * the host was started in, the ones the lead created). A team whose files are gone is left out.
 */
export async function readTeamSnapshot(
  source: TeamSource,
  options: { teams?: readonly string[] } = {},
): Promise<TeamSnapshot> {
  const local = source.teammates();
  const names = [...new Set([...(options.teams ?? []), ...local.map((teammate) => teammate.team)])];
  const teams = await Promise.all(names.map((team) => readTeam(source, team, local)));
  return { teams: teams.filter((team): team is TeamSummary => team !== undefined) };
}
