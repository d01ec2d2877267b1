import { join } from "node:path";
import { NyzhiError, readFileIfExists } from "@nyzhi/config";
import type { MemberState } from "../events/team-view.js";

/** A refused team operation; the message is what the model (or the user) sees. */
export class TeamError extends NyzhiError {}

/** Where team state lives: `resolveDirs(env).teams` and `.tasks` (relocated by NYZHI_HOME). */
export interface TeamDirs {
  teams: string;
  tasks: string;
}

/**
 * What a member is doing, as recorded in `config.json` for `nyz teams show`: `pending` (listed,
 * never started), `working`, `idle` (waiting for mail), `shutdown` (ended on request), `stopped`
 * (its process ended the session without a shutdown request).
 */
export type { MemberState };

/** One member of `config.json` (spec core §3.2); `agentId` is written as `null` when unset. */
export interface TeamMember {
  name: string;
  agentId: string | null;
  /** `leader` for the lead, `general-purpose` for teammates. */
  agentType: string;
  color: string;
  model?: string;
  role?: string;
  worktree_path?: string;
  /** Whether the teammate must get a plan approved before editing. */
  plan_mode?: boolean;
  state?: MemberState;
  /** The process running the member, to tell a live idle member from one whose process ended. */
  pid?: number;
  /** When `state` last changed (RFC 3339). */
  state_at?: string;
}

/** `teams/<team>/config.json`. */
export interface TeamConfig {
  name: string;
  created_at: string;
  members: TeamMember[];
  default_model?: string;
  default_role?: string;
  /** Step cap for teammates; 0 means the default (100). */
  max_steps: number;
}

/** Member colours by index, cycling (spec core §3.2). */
export const TEAM_COLORS = [
  "#e06c75",
  "#98c379",
  "#e5c07b",
  "#61afef",
  "#c678dd",
  "#56b6c2",
  "#d19a66",
  "#be5046",
  "#7ec699",
  "#f8c555",
] as const;

/** The lead's name when a team names none. */
export const DEFAULT_LEAD_NAME = "team-lead";

export function colorFor(index: number): string {
  return TEAM_COLORS[index % TEAM_COLORS.length]!;
}

/** The lead: the first `leader` member, else `team-lead`. */
export function leadName(team: TeamConfig): string {
  return team.members.find((member) => member.agentType === "leader")?.name ?? DEFAULT_LEAD_NAME;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Team and member names become file names, so they are checked before any path is built. */
export function checkName(kind: "team" | "member", name: string): string {
  const trimmed = name.trim();
  if (!SAFE_NAME.test(trimmed) || trimmed.includes("..")) {
    throw new TeamError(
      `invalid_${kind}_name`,
      `Invalid ${kind} name '${name}': use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
  return trimmed;
}

/** The files of one team (spec core §3.1). */
export function teamPaths(dirs: TeamDirs, team: string) {
  const name = checkName("team", team);
  const dir = join(dirs.teams, name);
  const tasks = join(dirs.tasks, name);
  return {
    dir,
    config: join(dir, "config.json"),
    configLock: join(dir, "config.lock"),
    inboxes: join(dir, "inboxes"),
    inbox: (member: string) => join(dir, "inboxes", `${checkName("member", member)}.json`),
    inboxLock: (member: string) => join(dir, "inboxes", `${checkName("member", member)}.lock`),
    tasks,
    task: (id: string) => join(tasks, `${id}.json`),
    highWaterMark: join(tasks, ".highwatermark"),
    tasksLock: join(tasks, ".lock"),
  };
}

export type TeamPaths = ReturnType<typeof teamPaths>;

/** Reads a JSON file; `undefined` when it does not exist. */
export async function readJsonFile<T>(path: string): Promise<T | undefined> {
  const text = await readFileIfExists(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new TeamError("team_file_corrupt", `${path} is not valid JSON: ${(error as Error).message}`);
  }
}
