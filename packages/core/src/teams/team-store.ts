import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { type FileLockOptions, withFileLock, writeFileAtomic } from "@nyzhi/config";
import {
  checkName,
  colorFor,
  DEFAULT_LEAD_NAME,
  readJsonFile,
  type TeamConfig,
  type TeamDirs,
  TeamError,
  type TeamMember,
  teamPaths,
} from "./team-types.js";

export interface CreateTeamRequest {
  name: string;
  /** The lead's member name. Default `team-lead`. */
  leadName?: string;
  /** Teammates registered up front (not yet running). */
  members?: readonly { name: string; role?: string | undefined; model?: string | undefined }[];
  defaultModel?: string;
  defaultRole?: string;
  maxSteps?: number;
}

/**
 * `teams/<team>/config.json`: create, load, list, delete, and member upserts. Every change is a
 * read-modify-write under the team's `config.lock`, written atomically, so processes sharing a
 * team never lose each other's member updates.
 */
export class TeamStore {
  /** Called after each write to a team's files (the session's `team-state` events). */
  onWrite: ((team: string) => void) | undefined;

  constructor(
    readonly dirs: TeamDirs,
    private readonly lockOptions: FileLockOptions = {},
  ) {}

  paths(team: string) {
    return teamPaths(this.dirs, team);
  }

  /** Creates the team: directories, high-water mark, config, one empty inbox per member. */
  async create(request: CreateTeamRequest): Promise<TeamConfig> {
    const paths = this.paths(request.name);
    await mkdir(paths.inboxes, { recursive: true });
    await mkdir(paths.tasks, { recursive: true });
    return withFileLock(
      paths.configLock,
      async () => {
        if (await readJsonFile(paths.config))
          throw new TeamError("team_exists", `Team '${request.name}' already exists.`);
        const lead = checkName("member", request.leadName ?? DEFAULT_LEAD_NAME);
        const members: TeamMember[] = [
          { name: lead, agentId: null, agentType: "leader", color: colorFor(0) },
        ];
        for (const entry of request.members ?? []) {
          const name = checkName("member", entry.name);
          if (members.some((member) => member.name === name)) continue;
          const member: TeamMember = {
            name,
            agentId: null,
            agentType: "general-purpose",
            color: colorFor(members.length),
            state: "pending",
          };
          if (entry.role) member.role = entry.role;
          if (entry.model) member.model = entry.model;
          members.push(member);
        }
        const config: TeamConfig = {
          name: paths.dir.split(/[\\/]/).pop()!,
          created_at: new Date().toISOString(),
          members,
          max_steps: request.maxSteps ?? 0,
        };
        if (request.defaultModel) config.default_model = request.defaultModel;
        if (request.defaultRole) config.default_role = request.defaultRole;
        if (!(await exists(paths.highWaterMark))) await writeFileAtomic(paths.highWaterMark, "0");
        for (const member of members)
          if (!(await exists(paths.inbox(member.name))))
            await writeFileAtomic(paths.inbox(member.name), "[]\n");
        await this.write(config);
        return config;
      },
      this.lockOptions,
    );
  }

  /** The team's config; throws `Team '<n>' not found`. */
  async load(team: string): Promise<TeamConfig> {
    const config = await this.find(team);
    if (!config) throw new TeamError("team_not_found", `Team '${team}' not found.`);
    return config;
  }

  async find(team: string): Promise<TeamConfig | undefined> {
    return readJsonFile<TeamConfig>(this.paths(team).config);
  }

  /** Names of the teams that have a config, sorted. */
  async list(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.dirs.teams);
    } catch {
      return [];
    }
    const names: string[] = [];
    for (const entry of entries.sort()) {
      try {
        if (await exists(this.paths(entry).config)) names.push(entry);
      } catch {
        // Not a valid team name: not ours.
      }
    }
    return names;
  }

  /** Removes the team directory and its task board. */
  async delete(team: string): Promise<void> {
    const paths = this.paths(team);
    await this.load(team);
    await rm(paths.dir, { recursive: true, force: true });
    await rm(paths.tasks, { recursive: true, force: true });
  }

  /**
   * Adds a member or updates the one with that name (never a duplicate); its inbox is created.
   * Returns the member as stored and whether it was new.
   */
  async upsertMember(
    team: string,
    name: string,
    update: (existing: TeamMember | undefined, config: TeamConfig) => Partial<TeamMember>,
  ): Promise<{ member: TeamMember; created: boolean }> {
    const paths = this.paths(team);
    const memberName = checkName("member", name);
    return this.mutate(team, async (config) => {
      const existing = config.members.find((member) => member.name === memberName);
      const changes = update(existing, config);
      if (existing) {
        Object.assign(existing, changes);
        return { member: existing, created: false };
      }
      const member: TeamMember = {
        name: memberName,
        agentId: null,
        agentType: "general-purpose",
        color: colorFor(config.members.length),
        ...changes,
      };
      config.members.push(member);
      if (!(await exists(paths.inbox(memberName)))) await writeFileAtomic(paths.inbox(memberName), "[]\n");
      return { member, created: true };
    });
  }

  /** Updates an existing member; unknown names are ignored (the team may have been deleted). */
  async updateMember(team: string, name: string, changes: Partial<TeamMember>): Promise<void> {
    if (!(await this.find(team))) return;
    await this.mutate(team, async (config) => {
      const member = config.members.find((entry) => entry.name === name);
      if (member) Object.assign(member, changes);
    });
  }

  /** A read-modify-write of `config.json` under the team's lock. */
  async mutate<T>(team: string, change: (config: TeamConfig) => Promise<T>): Promise<T> {
    const paths = this.paths(team);
    return withFileLock(
      paths.configLock,
      async () => {
        const config = await this.load(team);
        const result = await change(config);
        await this.write(config);
        return result;
      },
      this.lockOptions,
    );
  }

  private async write(config: TeamConfig): Promise<void> {
    const ordered = {
      ...config,
      members: config.members.map((member) => ({ ...member, agentId: member.agentId ?? null })),
    };
    await writeFileAtomic(this.paths(config.name).config, `${JSON.stringify(ordered, null, 2)}\n`);
    this.onWrite?.(config.name);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
