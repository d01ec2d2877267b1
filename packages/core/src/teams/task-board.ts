import { mkdir, readdir, readFile } from "node:fs/promises";
import { type FileLockOptions, withFileLock, writeFileAtomic } from "@nyzhi/config";
import { readJsonFile, type TeamDirs, TeamError, teamPaths } from "./team-types.js";

export const TASK_STATUSES = ["pending", "in_progress", "completed", "blocked", "deleted"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** `tasks/<team>/<id>.json` (spec core §3.4): camelCase `blockedBy`, snake_case elsewhere. */
export interface TeamTask {
  id: string;
  subject: string;
  description?: string;
  active_form?: string;
  status: TaskStatus;
  owner?: string;
  /** Tasks waiting for this one. */
  blocks: string[];
  /** Unfinished tasks this one waits for. */
  blockedBy: string[];
  created_at: string;
  updated_at: string;
}

export interface CreateTaskRequest {
  subject: string;
  description?: string | undefined;
  activeForm?: string | undefined;
  blockedBy?: readonly string[] | undefined;
  owner?: string | undefined;
}

export interface UpdateTaskRequest {
  status?: TaskStatus | undefined;
  /** A member name; `null` or "" clears the owner. */
  owner?: string | null | undefined;
  /** Replaces the task's dependencies (kept consistent with the blockers' `blocks`). */
  blockedBy?: readonly string[] | undefined;
  subject?: string | undefined;
  description?: string | undefined;
}

export interface TaskFilter {
  status?: TaskStatus | undefined;
  owner?: string | undefined;
  /** Only tasks nobody owns. */
  unowned?: boolean | undefined;
}

/** What changed besides the task itself, so callers can notify (assignment, unblocking). */
export interface TaskUpdateResult {
  task: TeamTask;
  previous: TeamTask;
  /** Tasks that became `pending` because this one completed or was deleted. */
  unblocked: TeamTask[];
}

/**
 * The shared task board of one team. Every change runs under `tasks/<team>/.lock`, so ids come
 * from the high-water mark without gaps or repeats, dependency edges are changed on both ends in
 * one cycle, and a claim is atomic: only one member can own a task.
 */
export class TaskBoard {
  /** Called after each write to a team's files (the session's `team-state` events). */
  onWrite: ((team: string) => void) | undefined;

  constructor(
    readonly dirs: TeamDirs,
    private readonly lockOptions: FileLockOptions = {},
  ) {}

  async create(team: string, request: CreateTaskRequest): Promise<TeamTask> {
    if (!request.subject.trim()) throw new TeamError("task_invalid", "A task needs a subject.");
    return this.locked(team, async (paths) => {
      // The high-water mark is a hint: a lost or emptied one must never make an id repeat, so the
      // largest task file present counts too.
      const raw = await readFile(paths.highWaterMark, "utf8").catch(() => "0");
      const existing = await readdir(paths.tasks).catch(() => [] as string[]);
      const highest = existing.reduce((max, name) => {
        const match = /^(\d+)\.json$/.exec(name);
        return match ? Math.max(max, Number(match[1])) : max;
      }, 0);
      const id = String(Math.max(Number.parseInt(raw.trim(), 10) || 0, highest) + 1);
      const now = new Date().toISOString();
      const blockers = await this.loadAll(team, unique(request.blockedBy ?? []));
      const task: TeamTask = {
        id,
        subject: request.subject.trim(),
        status: "pending",
        blocks: [],
        blockedBy: blockers.filter((blocker) => !isDone(blocker)).map((blocker) => blocker.id),
        created_at: now,
        updated_at: now,
      };
      if (task.blockedBy.length > 0) task.status = "blocked";
      if (request.description) task.description = request.description;
      if (request.activeForm) task.active_form = request.activeForm;
      if (request.owner) task.owner = request.owner;
      await writeFileAtomic(paths.highWaterMark, id, { fsync: false });
      for (const blocker of blockers) {
        if (isDone(blocker) || blocker.blocks.includes(id)) continue;
        blocker.blocks.push(id);
        await this.write(team, blocker);
      }
      await this.write(team, task);
      return task;
    });
  }

  async get(team: string, id: string): Promise<TeamTask | undefined> {
    return readJsonFile<TeamTask>(teamPaths(this.dirs, team).task(checkId(id)));
  }

  /** Every task matching the filter, by numeric id. */
  async list(team: string, filter: TaskFilter = {}): Promise<TeamTask[]> {
    const paths = teamPaths(this.dirs, team);
    let files: string[];
    try {
      files = await readdir(paths.tasks);
    } catch {
      return [];
    }
    const tasks: TeamTask[] = [];
    for (const file of files) {
      if (!/^\d+\.json$/.test(file)) continue;
      const task = await readJsonFile<TeamTask>(paths.task(file.slice(0, -5)));
      if (!task) continue;
      if (filter.status && task.status !== filter.status) continue;
      if (filter.owner && task.owner !== filter.owner) continue;
      if (filter.unowned && task.owner) continue;
      tasks.push(task);
    }
    return tasks.sort((left, right) => Number(left.id) - Number(right.id));
  }

  /** Sets status, owner, dependencies; completing or deleting a task unblocks its dependents. */
  async update(team: string, id: string, request: UpdateTaskRequest): Promise<TaskUpdateResult> {
    return this.locked(team, async () => this.applyUpdate(team, id, request));
  }

  /**
   * Atomically makes `member` the owner of a task and sets it `in_progress`. Refused when another
   * member owns it, or it is blocked, completed or deleted.
   */
  async claim(team: string, id: string, member: string): Promise<TeamTask> {
    return this.locked(team, async () => {
      const task = await this.require(team, id);
      refuseClaim(task, member);
      return (await this.applyUpdate(team, id, { owner: member, status: "in_progress" })).task;
    });
  }

  /** Claims the lowest-numbered pending task nobody owns; undefined when there is none. */
  async claimNext(team: string, member: string): Promise<TeamTask | undefined> {
    return this.locked(team, async () => {
      const next = (await this.list(team, { status: "pending", unowned: true }))[0];
      if (!next) return undefined;
      return (await this.applyUpdate(team, next.id, { owner: member, status: "in_progress" })).task;
    });
  }

  private async applyUpdate(team: string, id: string, request: UpdateTaskRequest): Promise<TaskUpdateResult> {
    const task = await this.require(team, id);
    const previous: TeamTask = structuredClone(task);
    const unblocked: TeamTask[] = [];
    if (request.subject?.trim()) task.subject = request.subject.trim();
    if (request.description !== undefined) task.description = request.description;
    if (request.owner !== undefined) {
      if (request.owner) task.owner = request.owner;
      else delete task.owner;
    }
    if (request.blockedBy) await this.rewire(team, task, unique(request.blockedBy));
    if (request.status === "in_progress" && task.blockedBy.length > 0) throw blockedError(task);
    if (request.status)
      task.status = request.status === "pending" && task.blockedBy.length > 0 ? "blocked" : request.status;
    else if (task.status === "blocked" && task.blockedBy.length === 0) task.status = "pending";
    else if (task.status === "pending" && task.blockedBy.length > 0) task.status = "blocked";
    task.updated_at = new Date().toISOString();
    await this.write(team, task);
    if (isDone(task) && !isDone(previous)) {
      for (const dependent of await this.loadAll(team, task.blocks)) {
        dependent.blockedBy = dependent.blockedBy.filter((blocker) => blocker !== task.id);
        if (dependent.blockedBy.length === 0 && dependent.status === "blocked") {
          dependent.status = "pending";
          unblocked.push(dependent);
        }
        dependent.updated_at = task.updated_at;
        await this.write(team, dependent);
      }
    }
    return { task, previous, unblocked };
  }

  /** Replaces `task.blockedBy`, updating `blocks` on the old and new blockers. */
  private async rewire(team: string, task: TeamTask, blockedBy: string[]): Promise<void> {
    if (blockedBy.includes(task.id))
      throw new TeamError("task_invalid", `Task #${task.id} cannot block itself.`);
    const removed = task.blockedBy.filter((id) => !blockedBy.includes(id));
    for (const old of await this.loadAll(team, removed)) {
      old.blocks = old.blocks.filter((id) => id !== task.id);
      await this.write(team, old);
    }
    const blockers = await this.loadAll(team, blockedBy);
    task.blockedBy = blockers.filter((blocker) => !isDone(blocker)).map((blocker) => blocker.id);
    for (const blocker of blockers) {
      if (isDone(blocker) || blocker.blocks.includes(task.id)) continue;
      blocker.blocks.push(task.id);
      await this.write(team, blocker);
    }
  }

  private async require(team: string, id: string): Promise<TeamTask> {
    const task = await this.get(team, id);
    if (!task) throw new TeamError("task_not_found", `Task #${id} not found in team '${team}'.`);
    return task;
  }

  private async loadAll(team: string, ids: readonly string[]): Promise<TeamTask[]> {
    return Promise.all(ids.map((id) => this.require(team, id)));
  }

  private async write(team: string, task: TeamTask): Promise<void> {
    await writeFileAtomic(teamPaths(this.dirs, team).task(task.id), `${JSON.stringify(task, null, 2)}\n`, {
      fsync: false,
    });
    this.onWrite?.(team);
  }

  private async locked<T>(
    team: string,
    task: (paths: ReturnType<typeof teamPaths>) => Promise<T>,
  ): Promise<T> {
    const paths = teamPaths(this.dirs, team);
    await mkdir(paths.tasks, { recursive: true });
    return withFileLock(paths.tasksLock, () => task(paths), this.lockOptions);
  }
}

/** Throws unless `member` may claim `task`. */
export function refuseClaim(task: TeamTask, member: string): void {
  if (task.owner && task.owner !== member)
    throw new TeamError("task_claimed", `Task #${task.id} is already claimed by '${task.owner}'.`);
  if (task.status === "blocked" || task.blockedBy.length > 0) throw blockedError(task);
  if (isDone(task)) throw new TeamError("task_closed", `Task #${task.id} is already ${task.status}.`);
}

const blockedError = (task: TeamTask) =>
  new TeamError(
    "task_blocked",
    `Task #${task.id} is blocked by ${task.blockedBy.map((id) => `#${id}`).join(", ")}.`,
  );

const isDone = (task: TeamTask) => task.status === "completed" || task.status === "deleted";

const unique = (ids: readonly string[]) => [
  ...new Set(ids.map((id) => checkId(String(id).replace(/^#/, "")))),
];

function checkId(id: string): string {
  if (!/^\d+$/.test(id)) throw new TeamError("task_invalid", `Invalid task id '${id}': use the number.`);
  return id;
}
