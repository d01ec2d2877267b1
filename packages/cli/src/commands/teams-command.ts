import { isAlive, resolveDirs } from "@nyzhi/config";
import {
  formatTaskLine,
  leadName,
  Mailbox,
  TaskBoard,
  type TeamConfig,
  type TeamMember,
  TeamStore,
  type TeamTask,
} from "@nyzhi/core";
import { ExitCode } from "../io/exit-codes.js";
import type { CommandIo } from "../io/output.js";

function stateFor(io: CommandIo) {
  const dirs = resolveDirs(io.env);
  const teamDirs = { teams: dirs.teams, tasks: dirs.tasks };
  return { store: new TeamStore(teamDirs), mailbox: new Mailbox(teamDirs), board: new TaskBoard(teamDirs) };
}

/** A member as `teams show` reports it: its recorded state, whether its process lives, its unread mail. */
export interface MemberView extends TeamMember {
  /** True when the process that runs it is alive (a `working`/`idle` member whose process ended is not). */
  running: boolean;
  unread: number;
}

async function describeTeam(io: CommandIo, name: string) {
  const { store, mailbox, board } = stateFor(io);
  const config = await store.load(name);
  const members: MemberView[] = [];
  for (const member of config.members) {
    const live = member.state === "working" || member.state === "idle";
    members.push({
      ...member,
      running: live && member.pid !== undefined && isAlive(member.pid),
      unread: await mailbox.unreadCount(name, member.name),
    });
  }
  const tasks = await board.list(name);
  return { config, members, tasks };
}

function countByStatus(tasks: readonly TeamTask[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of tasks) counts[task.status] = (counts[task.status] ?? 0) + 1;
  return counts;
}

/** `nyz teams list [--json]`. */
export async function listTeams(io: CommandIo, options: { json?: boolean }): Promise<number> {
  const { store } = stateFor(io);
  const rows = [];
  for (const name of await store.list()) {
    const { config, members, tasks } = await describeTeam(io, name);
    rows.push({
      name,
      created_at: config.created_at,
      lead: leadName(config),
      members: members.map((member) => ({
        name: member.name,
        state: member.state ?? null,
        unread: member.unread,
      })),
      tasks: countByStatus(tasks),
    });
  }
  if (options.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return ExitCode.success;
  }
  if (rows.length === 0) {
    io.stdout("No teams found.\n");
    return ExitCode.success;
  }
  for (const row of rows) {
    const tasks = Object.entries(row.tasks)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ");
    io.stdout(
      `${row.name}  ${row.members.length} members (${row.members.map((member) => member.name).join(", ")})  tasks: ${tasks || "none"}\n`,
    );
  }
  return ExitCode.success;
}

function memberLine(member: MemberView, config: TeamConfig): string {
  const state = member.state ?? (member.agentType === "leader" ? "lead" : "pending");
  const liveness =
    (member.state === "working" || member.state === "idle") && !member.running ? " (process ended)" : "";
  const role = member.agentType === "leader" ? "leader" : (member.role ?? config.default_role ?? "default");
  return `  ${member.name.padEnd(16)} ${role.padEnd(16)} ${`${state}${liveness}`.padEnd(24)} ${member.unread} unread${member.plan_mode ? "  plan mode" : ""}`;
}

/** `nyz teams show <team> [--json]`: members with state and unread counts, then the task board. */
export async function showTeam(io: CommandIo, name: string, options: { json?: boolean }): Promise<number> {
  const { config, members, tasks } = await describeTeam(io, name);
  if (options.json) {
    const { members: _stored, ...team } = config;
    io.stdout(`${JSON.stringify({ ...team, lead: leadName(config), members, tasks }, null, 2)}\n`);
    return ExitCode.success;
  }
  io.stdout(`Team '${config.name}' (created ${config.created_at}, lead '${leadName(config)}')\n`);
  io.stdout(`Members:\n`);
  for (const member of members) io.stdout(`${memberLine(member, config)}\n`);
  io.stdout(`Tasks:\n`);
  if (tasks.length === 0) io.stdout("  none\n");
  for (const task of tasks) io.stdout(`  ${formatTaskLine(task).slice(2)}\n`);
  return ExitCode.success;
}

/** `nyz teams delete <team>`: removes its config, inboxes and task board. */
export async function deleteTeam(io: CommandIo, name: string): Promise<number> {
  await stateFor(io).store.delete(name);
  io.stdout(`Team '${name}' deleted.\n`);
  return ExitCode.success;
}
