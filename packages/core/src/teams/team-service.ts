import { randomUUID } from "node:crypto";
import { type FileLockOptions, isAlive } from "@nyzhi/config";
import type { ModelMessage } from "@nyzhi/provider";
import { addUsage, emptyUsage, type Usage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { assembleSystemPrompt } from "../agent-loop/system-prompt.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { Mailbox } from "./mailbox.js";
import { TaskBoard } from "./task-board.js";
import { formatTeammateMessages, type TeamMessage } from "./team-message.js";
import { TeamStateReporter } from "./team-state-events.js";
import { TeamStore } from "./team-store.js";
import { DEFAULT_LEAD_NAME, leadName, type TeamDirs, TeamError, type TeamMember } from "./team-types.js";
import { planModeFragment, teammateFragment } from "./teammate-prompt.js";
import { TeammateRunner } from "./teammate-runner.js";

/** Where the runtime puts the session's TeamService in `ToolContext.services`. */
export const TEAM_SERVICE = "teams";

/** Who is calling a team tool: which team, under which member name, and whether as its lead. */
export interface TeamIdentity {
  team: string;
  member: string;
  isLead: boolean;
}

export interface TeamServiceOptions {
  dirs: TeamDirs;
  /** The session's main agent. */
  lead: AgentTag;
  /** The main agent's team from the host (`nyz exec --team-name`); it may also create or join teams. */
  team?: { name: string; memberName?: string | undefined; isLead?: boolean | undefined } | undefined;
  lifecycle: Pick<LifecycleHooks, "teammateIdle" | "taskCompleted">;
  /** Builds a teammate's agent like a subagent (role, briefing, model, fenced tools). */
  buildTeammate?: (request: {
    agentId: string;
    name: string;
    roleName: string | undefined;
    model: string | undefined;
  }) => Promise<{ context: AgentContext; role: string; model: string }>;
  /** Team tools a teammate gets on top of its role's tools. */
  memberTools: () => Tool[];
  emit: (event: AgentEvent) => void;
  pollMs?: number;
  /** Watch the team files for other processes' changes (`team-state` events); default true. */
  watchTeams?: boolean;
  lockOptions?: FileLockOptions;
}

export interface SpawnTeammateRequest {
  callerId: string;
  team?: string | undefined;
  name: string;
  message: string;
  role?: string | undefined;
  model?: string | undefined;
  planMode?: boolean | undefined;
}

/**
 * The session's side of teams: who each agent is in which team, the teammates this process runs,
 * and the lead's inbox reading. State itself lives in files (store, mailbox, board) shared with
 * every other process.
 */
export class TeamService {
  readonly store: TeamStore;
  readonly mailbox: Mailbox;
  readonly board: TaskBoard;
  /** Teams the main agent leads, with its member name in each (undefined: the team's lead name). */
  private readonly led = new Map<string, string | undefined>();
  private primary: string | undefined;
  private readonly memberOf = new Map<string, TeamIdentity>();
  private readonly runners = new Map<string, TeammateRunner>();
  /** Emits `team-state` after each change, this process's or (watched) another's. */
  private readonly reporter: TeamStateReporter;

  constructor(private readonly options: TeamServiceOptions) {
    this.store = new TeamStore(options.dirs, options.lockOptions);
    this.mailbox = new Mailbox(options.dirs, options.lockOptions);
    this.board = new TaskBoard(options.dirs, options.lockOptions);
    this.reporter = new TeamStateReporter({
      source: this,
      dirs: options.dirs,
      lead: options.lead,
      emit: options.emit,
      ...(options.watchTeams !== undefined ? { watch: options.watchTeams } : {}),
    });
    this.store.onWrite = () => this.reporter.changed("members");
    this.mailbox.onWrite = () => this.reporter.changed("mail");
    this.board.onWrite = () => this.reporter.changed("board");
    const team = options.team;
    if (team) {
      this.primary = team.name;
      if (team.isLead === false) {
        this.memberOf.set(options.lead.agentId, {
          team: team.name,
          member: team.memberName ?? DEFAULT_LEAD_NAME,
          isLead: false,
        });
      } else this.led.set(team.name, team.memberName);
      // A team the host joined: its state now, and the watcher for the other processes' changes.
      this.reporter.changed("members");
    }
  }

  /** The hooks team tools fire (`task_completed`). */
  get lifecycle(): TeamServiceOptions["lifecycle"] {
    return this.options.lifecycle;
  }

  /** The team a caller means (`team` argument, else its own) and who it is there. */
  async identify(agentId: string, team?: string): Promise<TeamIdentity> {
    const member = this.memberOf.get(agentId);
    if (member) {
      if (team && team !== member.team)
        throw new TeamError(
          "team_not_member",
          `You are '${member.member}' in team '${member.team}', not in '${team}'.`,
        );
      return member;
    }
    if (agentId !== this.options.lead.agentId)
      throw new TeamError("team_not_member", "Only the team lead and teammates can use team tools.");
    const name = team?.trim() || this.primary;
    if (!name)
      throw new TeamError("team_missing", "No team given: pass `team`, or create one with team_create.");
    if (!this.led.has(name) && (await this.store.find(name))) this.adopt(name);
    return { team: name, member: await this.leadMemberName(name), isLead: true };
  }

  /** The main agent's member name when it creates a team. */
  leadNameForNewTeam(): string {
    return this.options.team?.isLead === false
      ? DEFAULT_LEAD_NAME
      : (this.options.team?.memberName ?? DEFAULT_LEAD_NAME);
  }

  /**
   * Whether the main agent is in a team — one the host gave it, or one it created or spawned into
   * this session — so a headless host follows the team after its turn instead of ending it.
   */
  leadInTeam(): boolean {
    return this.led.size > 0 || this.memberOf.has(this.options.lead.agentId);
  }

  /** The teams the main agent leads or is a member of this session (for the app's agents panel). */
  teamNames(): string[] {
    const member = this.memberOf.get(this.options.lead.agentId);
    return [...new Set([...this.led.keys(), ...(member ? [member.team] : [])])];
  }

  /** The main agent now leads `team`: its inbox is read every step. */
  adopt(team: string, memberName?: string): void {
    const known = this.led.has(team);
    if (memberName !== undefined || !known) this.led.set(team, memberName ?? this.led.get(team));
    this.primary = team;
    if (!known) this.reporter.changed("members");
  }

  /** Forgets a deleted team and stops its teammates. */
  async forget(team: string): Promise<void> {
    this.led.delete(team);
    if (this.primary === team) this.primary = [...this.led.keys()].at(-1);
    await Promise.all(
      [...this.runners.entries()]
        .filter(([key]) => key.startsWith(`${team}/`))
        .map(([, runner]) => runner.stop()),
    );
  }

  /**
   * The main agent's step hook: unread mail of every inbox it reads (each led team's lead inbox,
   * or its own member inbox), marked read as it is delivered.
   */
  takeMessagesFor = async (agentId: string): Promise<ModelMessage[]> => {
    const messages: TeamMessage[] = [];
    for (const inbox of await this.inboxesOf(agentId)) {
      const taken = await this.mailbox.takeUnread(inbox.team, inbox.member).catch(() => []);
      messages.push(...taken);
    }
    return messages.length > 0 ? [{ role: "user", content: formatTeammateMessages(messages) }] : [];
  };

  /** Unread mail for `read_inbox`; a teammate's control messages take effect as for injection. */
  async readInbox(identity: TeamIdentity): Promise<TeamMessage[]> {
    const runner = this.runners.get(`${identity.team}/${identity.member}`);
    if (runner) return runner.readInbox();
    return this.mailbox.takeUnread(identity.team, identity.member);
  }

  /** Sends `text` from `from` to one member or (`all`) everyone else; returns the recipients. */
  async send(from: TeamIdentity, to: string, text: string): Promise<string[]> {
    const config = await this.store.load(from.team);
    const color = config.members.find((member) => member.name === from.member)?.color;
    const names = config.members.map((member) => member.name);
    let recipients: string[];
    if (to === "all" || to === "*") {
      recipients = await this.mailbox.broadcast(from.team, names, { from: from.member, text, color });
    } else {
      if (!names.includes(to))
        throw new TeamError(
          "team_unknown_member",
          `No member '${to}' in team '${from.team}'. Members: ${names.join(", ")}.`,
        );
      await this.mailbox.send(from.team, to, { from: from.member, text, color });
      recipients = [to];
    }
    for (const name of recipients) this.runners.get(`${from.team}/${name}`)?.notify();
    return recipients;
  }

  /** Starts a teammate, or hands the message to the one already running under that name. */
  async spawnTeammate(request: SpawnTeammateRequest): Promise<string> {
    const caller = await this.identify(request.callerId, request.team);
    if (!caller.isLead) throw new TeamError("team_not_lead", "Only the team lead can spawn teammates.");
    if (!this.options.buildTeammate)
      throw new TeamError("team_no_agents", "Teammates need subagents (agent.agents.enabled).");
    const team = caller.team;
    const config = await this.store.load(team);
    this.adopt(team);
    const existing = config.members.find((member) => member.name === request.name);
    if (existing?.agentType === "leader")
      throw new TeamError("team_name_taken", `'${request.name}' is the lead of team '${team}'.`);
    const local = this.runners.get(`${team}/${request.name}`);
    const elsewhere =
      existing?.pid !== undefined &&
      existing.pid !== process.pid &&
      isAlive(existing.pid) &&
      (existing.state === "working" || existing.state === "idle");
    if ((local && local.state !== "shutdown" && local.state !== "stopped") || elsewhere) {
      await this.send(caller, request.name, request.message);
      return `Teammate '${request.name}' is already running in team '${team}' (${local?.state ?? existing?.state}${elsewhere ? `, pid ${existing?.pid}` : ""}); your message was delivered to its inbox.`;
    }

    const roleName = request.role?.trim() || existing?.role || config.default_role;
    const model = request.model?.trim() || existing?.model || config.default_model;
    const agentId = randomUUID();
    const built = await this.options.buildTeammate({ agentId, name: request.name, roleName, model });
    const planMode = request.planMode ?? existing?.plan_mode ?? false;
    const { member } = await this.store.upsertMember(team, request.name, () => ({
      agentId,
      role: built.role,
      ...(model ? { model } : {}),
      plan_mode: planMode,
      state: "pending",
      pid: process.pid,
    }));
    const runner = this.prepareRunner({
      team,
      name: request.name,
      color: member.color,
      built,
      planMode,
      config,
    });
    this.memberOf.set(agentId, { team, member: request.name, isLead: false });
    this.runners.set(`${team}/${request.name}`, runner);
    this.options.emit({
      type: "subagent-spawned",
      agent: this.options.lead,
      childId: agentId,
      nickname: request.name,
      role: built.role,
      depth: built.context.agent.depth,
      unknownRole: false,
      model: built.model,
      task: request.message,
    });
    runner.start(request.message);
    const how = hasRun(existing) ? "restarted" : "started";
    return `Teammate '${request.name}' (role: ${built.role}${planMode ? ", plan mode" : ""}) ${how} in team '${team}' and is now working. It reports to '${caller.member}'; its messages reach you before your next steps.`;
  }

  private prepareRunner(setup: {
    team: string;
    name: string;
    color: string;
    built: { context: AgentContext };
    planMode: boolean;
    config: { max_steps: number; members: { name: string; agentType: string }[] };
  }): TeammateRunner {
    const { context } = setup.built;
    const lead = leadName(setup.config as Parameters<typeof leadName>[0]);
    for (const tool of this.options.memberTools()) context.tools.register(tool);
    const withheld = setup.planMode
      ? context.tools
          .names()
          .map((name) => context.tools.peek(name)!)
          .filter((tool) => tool.mutates || ["edit", "execute", "network"].includes(tool.kind))
      : [];
    for (const tool of withheld) context.tools.unregister(tool.name);
    const base = context.system;
    const team = assembleSystemPrompt([teammateFragment({ team: setup.team, name: setup.name, lead })]);
    context.system = [
      ...base,
      ...team,
      ...(setup.planMode ? assembleSystemPrompt([planModeFragment(lead)]) : []),
    ];
    if (setup.config.max_steps > 0) context.maxSteps = setup.config.max_steps;
    const runner = new TeammateRunner({
      team: setup.team,
      member: setup.name,
      color: setup.color,
      context,
      mailbox: this.mailbox,
      store: this.store,
      lifecycle: this.options.lifecycle,
      emit: (event) => {
        this.options.emit(event);
        if (event.type === "subagent-status-changed") this.reporter.changed("status");
      },
      parent: this.options.lead,
      leadName: async () => leadName(await this.store.load(setup.team)),
      withheldTools: withheld,
      onPlanApproved: () => {
        context.system = [...base, ...team];
      },
      ...(this.options.pollMs !== undefined ? { pollMs: this.options.pollMs } : {}),
    });
    context.takePendingMessages = runner.takePending;
    return runner;
  }

  /** Tokens and cost of every teammate this process runs, summed. */
  usage(): { usage: Usage; costUsd: number } {
    let usage = emptyUsage();
    let costUsd = 0;
    for (const runner of this.runners.values()) {
      const own = runner.usage();
      usage = addUsage(usage, own.usage);
      costUsd += own.costUsd;
    }
    return { usage, costUsd };
  }

  /** Teammates this process runs, by `team/name`. */
  teammates(): { team: string; name: string; state: string; agentId: string }[] {
    return [...this.runners.entries()].map(([key, runner]) => {
      const [team, name] = key.split("/") as [string, string];
      return { team, name, state: runner.state, agentId: runner.agentId };
    });
  }

  /** Unread messages waiting in the inboxes the main agent reads. */
  async leadUnread(): Promise<number> {
    let count = 0;
    for (const inbox of await this.inboxesOf(this.options.lead.agentId))
      count += await this.mailbox.unreadCount(inbox.team, inbox.member).catch(() => 0);
    return count;
  }

  /**
   * For hosts that run the lead headless: waits until the lead has mail (`messages`), or every
   * local teammate is idle or ended with nothing unread (`quiet`), or the time is up (`timeout`).
   */
  async waitForLead(options: {
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<"messages" | "quiet" | "timeout"> {
    const deadline = Date.now() + options.timeoutMs;
    const pollMs = this.options.pollMs ?? 50;
    for (;;) {
      if (options.signal?.aborted) return "timeout";
      if ((await this.leadUnread()) > 0) return "messages";
      if (!(await this.anyTeammateBusy())) return "quiet";
      if (Date.now() >= deadline) return "timeout";
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** A local teammate is working, starting, or idle with mail it has not woken up to yet. */
  private async anyTeammateBusy(): Promise<boolean> {
    for (const [key, runner] of this.runners) {
      if (runner.state === "working" || runner.state === "pending") return true;
      if (runner.state !== "idle") continue;
      const [team, name] = key.split("/") as [string, string];
      if ((await this.mailbox.unreadCount(team, name).catch(() => 0)) > 0) return true;
    }
    return false;
  }

  /**
   * Stops one teammate this process runs (the user's stop key in the app), as the end of the
   * session would: recorded as `stopped`. False when no such teammate runs here.
   */
  async stopTeammate(team: string, name: string): Promise<boolean> {
    const runner = this.runners.get(`${team}/${name}`);
    if (!runner) return false;
    await runner.stop();
    return true;
  }

  /** Stops every local teammate (end of session); each is recorded as `stopped` unless shut down. */
  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((runner) => runner.stop()));
    await this.reporter.close();
  }

  private async inboxesOf(agentId: string): Promise<{ team: string; member: string }[]> {
    const member = this.memberOf.get(agentId);
    if (member) return [member];
    if (agentId !== this.options.lead.agentId) return [];
    const inboxes: { team: string; member: string }[] = [];
    for (const team of this.led.keys()) inboxes.push({ team, member: await this.leadMemberName(team) });
    return inboxes;
  }

  private async leadMemberName(team: string): Promise<string> {
    const explicit = this.led.get(team);
    if (explicit) return explicit;
    const config = await this.store.find(team).catch(() => undefined);
    return config ? leadName(config) : this.leadNameForNewTeam();
  }
}

/** A member ran before (in this or another process); one only listed by `team_create` never did. */
function hasRun(member: TeamMember | undefined): boolean {
  if (!member) return false;
  return member.agentId !== null || (member.state !== undefined && member.state !== "pending");
}
