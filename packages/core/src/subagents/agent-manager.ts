// Over 500 lines on purpose: slots, statuses, waiters and retention are one state machine, and
// keeping every transition of it in this class is what keeps "a slot is released exactly once" true.
import { randomUUID } from "node:crypto";
import { errorMessage } from "@nyzhi/config";
import { addUsage, emptyUsage, type ModelMessage, type Usage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { runTurn, type TurnInput } from "../agent-loop/run-turn.js";
import type { BudgetLedger } from "../budgets/budget-ledger.js";
import type { BudgetReport, BudgetSpec } from "../budgets/budget-types.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { SavedAgentThread } from "../saved-sessions/session-types.js";
import type { WorktreeRecord } from "../worktrees/worktree-records.js";
import { type AgentStatus, formatStatus, isFinal, statusWithResult, subagentState } from "./agent-status.js";
import { AgentWorktrees } from "./agent-worktrees.js";
import { NicknamePool } from "./nicknames.js";
import { forgottenUsageByAgent, savedOwnUsage } from "./saved-agent-usage.js";
import { SlotLimiter as Limiter, type SlotLimiter, type SlotPool } from "./slot-limiter.js";
import { SubagentError } from "./subagent-error.js";

export { SubagentError };

/** What the factory needs to build a child. */
export interface ChildRequest {
  agentId: string;
  nickname: string;
  depth: number;
  parentId: string;
  roleName: string | undefined;
  model: string | undefined;
  forkTurns: number | "all" | undefined;
  /**
   * Context isolation (the `task` tool): the child starts from its message alone — no briefing of
   * the parent's conversation, changes, todos or memory, no wisdom, no forked turns.
   */
  isolated?: boolean;
  /** Saved conversation when an agent is rebuilt (resume after `--continue`). */
  thread?: ModelMessage[];
  /** The spawn's own budget; absent: the role's default, if any. */
  budget?: BudgetSpec | undefined;
  /** `worktree`: the child works in its own git worktree; absent: the role's choice, else shared. */
  isolation?: "shared" | "worktree" | undefined;
  /** The manager's queue for `send_input`; the child's loop drains it at each step. */
  takePendingMessages: () => ModelMessage[];
}

/** A child the factory built. */
export interface BuiltChild {
  context: AgentContext;
  role: string;
  unknownRole: boolean;
  model: string;
  /** Its effective budget (the spawn's or the role's, clamped to its parent's); absent for none. */
  budget?: BudgetSpec | undefined;
  /** Its git worktree, when it works in one (`isolation: "worktree"`). */
  worktree?: WorktreeRecord | undefined;
}

/** Builds a child's context: role applied, briefing, fenced tools, model. The runtime implements it. */
export interface ChildFactory {
  /**
   * Throws when the role cannot be spawned (disabled), before any slot is taken, so a refused role
   * says why instead of "limit reached". Optional: without it the role is checked in `createChild`.
   */
  checkRole?(roleName: string | undefined): void;
  createChild(request: ChildRequest): Promise<BuiltChild>;
}

export interface AgentManagerOptions {
  /**
   * `spawn_agent` children one agent may run at once; more wait in line (`subagent-queued`).
   * Default 4.
   */
  maxThreads: number;
  /** `task` children one agent may run at once; more wait in line. Default 8. */
  maxTasks?: number;
  /**
   * Subagents running at once in the whole session; an agent waiting for its own children (`wait`,
   * `task`) does not count. Default 16.
   */
  maxRunning?: number;
  /** Spawns that may wait for a slot at once; one more is refused. Default 64. */
  maxQueued?: number;
  /** Deepest level a subagent may have: depth 0 (lead) spawns 1, … up to this. Default 2. */
  maxDepth: number;
  factory: ChildFactory;
  /** Where lifecycle events and the children's own events go (tagged with the child's AgentTag). */
  emit: (event: AgentEvent) => void;
  /** Called when a child starts and ends (hooks `subagent_start` / `subagent_end`). */
  onStart?: (agent: ManagedAgentInfo) => void;
  onEnd?: (agent: ManagedAgentInfo) => void;
  /** Where each agent's spending is checked against its budget (registered by the factory). */
  budgets?: BudgetLedger;
  /** nyzhi's data dir: where agent worktrees and their records live. Needed for `isolation: "worktree"`. */
  dataDir?: string;
  /** Called when a finished agent is dropped from memory (retention cap), to release what the host keeps for it. */
  onForget?: (agentId: string) => void;
}

export interface ManagedAgentInfo {
  id: string;
  nickname: string;
  role: string;
  depth: number;
  parentId: string;
  status: string;
  model: string;
  result?: string;
}

interface ManagedAgent {
  id: string;
  nickname: string;
  role: string;
  model: string;
  depth: number;
  parentId: string;
  status: AgentStatus;
  context: AgentContext | undefined;
  controller: AbortController;
  pending: ModelMessage[];
  holdsSlot: boolean;
  /** Which per-parent limit its slot counts against: `spawn_agent`'s threads or `task`'s own pool. */
  pool: SlotPool;
  usage: Usage;
  costUsd: number;
  /** Its effective budget, re-registered when it is resumed. */
  budget?: BudgetSpec | undefined;
  /** Its budget's report as saved by an earlier run (restored agents). */
  savedBudget?: BudgetReport | undefined;
  /** Its worktree while it works. */
  worktree?: WorktreeRecord | undefined;
}

/** What `spawn` returns. */
export interface SpawnedAgent {
  agentId: string;
  nickname: string;
  role: string;
  unknownRole: boolean;
  /** "" while it waits in line. */
  model: string;
  /** It waits for a slot (status `queued`) and starts when one frees. */
  queued?: true;
}

/** What `spawn` (and `runToCompletion`) need. */
export interface SpawnRequest {
  parent: AgentTag;
  message: string;
  roleName?: string | undefined;
  model?: string | undefined;
  forkTurns?: number | "all" | undefined;
  /** See `ChildRequest.isolated`. Isolated children take a `task` slot (and wait for one). */
  isolated?: boolean | undefined;
  /** Aborts the wait for a `task` slot. */
  signal?: AbortSignal | undefined;
  /** See `ChildRequest.budget`. */
  budget?: BudgetSpec | undefined;
  /** See `ChildRequest.isolation`. */
  isolation?: "shared" | "worktree" | undefined;
  /** The parent's tool call that spawns it, told to hosts so they show the child under it. */
  callId?: string | undefined;
}

export interface WaitRequest {
  callerId: string;
  /** Empty or absent: the caller's children still running or whose end it has not heard yet. */
  ids?: readonly string[];
  /** Clamped to 10 000 … 300 000 ms; default 30 000. */
  timeoutMs?: number;
  /** `any` (default): return when any is newly final; `all`: when all are final. */
  mode?: "any" | "all";
  signal?: AbortSignal;
}

/** Finished agents kept for `resume_agent` and `wait`; older finished ones are forgotten. */
export const MAX_RETAINED_FINISHED_AGENTS = 100;

/** Default of `AgentManagerOptions.maxTasks`: a usual fan-out of `task` calls runs at full width. */
export const DEFAULT_MAX_TASKS = 8;

/** Default of `AgentManagerOptions.maxRunning`: the default tree (4 children × 4) runs at full width. */
export const DEFAULT_MAX_RUNNING = 16;

/** Default of `AgentManagerOptions.maxQueued`: far above any planned fan-out, a stop for runaway loops. */
export const DEFAULT_MAX_QUEUED = 64;

export const WAIT_DEFAULT_MS = 30_000;
export const WAIT_MIN_MS = 10_000;
export const WAIT_MAX_MS = 300_000;

/**
 * Owns every subagent of one session: ids, nicknames, slots, status, threads. A slot is reserved
 * synchronously at spawn (so concurrent spawns cannot overshoot `maxThreads`) and released exactly
 * once when the agent reaches a final state; a finished agent holds no slot.
 */
export class AgentManager {
  private readonly agents = new Map<string, ManagedAgent>();
  private readonly nicknames = new NicknamePool();
  private readonly reported = new Map<string, Set<string>>();
  private readonly waiters = new Set<() => void>();
  /** Usage of forgotten agents (and their subtrees), by parent id, so accounting survives forgetting. */
  private readonly retiredUsage = new Map<string, { usage: Usage; costUsd: number }>();
  private readonly slots: SlotLimiter;
  /** Agents' worktrees whose changes wait for a decision (kept after their agents are forgotten). */
  readonly worktrees: AgentWorktrees;

  constructor(private readonly options: AgentManagerOptions) {
    this.worktrees = new AgentWorktrees(options.dataDir);
    this.slots = new Limiter({
      threadsPerParent: options.maxThreads,
      tasksPerParent: options.maxTasks ?? DEFAULT_MAX_TASKS,
      maxRunning: options.maxRunning ?? DEFAULT_MAX_RUNNING,
      maxQueued: options.maxQueued ?? DEFAULT_MAX_QUEUED,
    });
  }

  /** Agents holding a slot now: pending or running (`spawn_agent` agents and `task` children). */
  activeCount(): number {
    let count = 0;
    for (const agent of this.agents.values()) if (agent.holdsSlot) count += 1;
    return count;
  }

  /** Agents holding a session slot now (running and not waiting for their own children). */
  runningCount(): number {
    return this.slots.runningCount();
  }

  /**
   * Runs `work` while `agentId` waits for its own children: its session slot is lent to them
   * meanwhile and taken back (ahead of new spawns) before this resolves.
   */
  async whileWaiting<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const unpark = this.slots.park(agentId);
    try {
      return await work();
    } finally {
      await unpark();
    }
  }

  /** Starts a child, or (a `spawn_agent` child past its limits) puts it in line and returns `queued`. */
  async spawn(request: SpawnRequest): Promise<SpawnedAgent> {
    if (!request.message.trim())
      throw new SubagentError("subagent_empty_message", "empty message can't be sent to an agent");
    const depth = request.parent.depth + 1;
    if (depth > this.options.maxDepth) {
      throw new SubagentError(
        "subagent_depth",
        `Agent depth limit (${this.options.maxDepth}) reached. Solve the task yourself.`,
      );
    }
    this.options.factory.checkRole?.(request.roleName?.trim() || undefined);
    const pool: SlotPool = request.isolated ? "tasks" : "threads";
    const agent: ManagedAgent = {
      id: randomUUID(),
      nickname: this.nicknames.take(),
      role: request.roleName?.trim() || "default",
      model: "",
      depth,
      parentId: request.parent.agentId,
      status: { state: "pending_init" },
      context: undefined,
      controller: new AbortController(),
      pending: [],
      holdsSlot: false,
      pool,
      usage: emptyUsage(),
      costUsd: 0,
    };
    const now = this.slots.canStartNow(agent.parentId, pool);
    if (!now && pool === "threads") {
      // `spawn_agent` returns at once: the child waits in line and starts when a slot frees.
      try {
        this.slots.assertRoomInLine();
      } catch (error) {
        this.nicknames.release(agent.nickname);
        throw error;
      }
      this.queueSpawn(agent, request);
      return {
        agentId: agent.id,
        nickname: agent.nickname,
        role: agent.role,
        unknownRole: false,
        model: "",
        queued: true,
      };
    }
    try {
      // A `task` call waits for its slot; its caller lends its own session slot meanwhile.
      await this.takeSlot(agent, request, { signal: request.signal, parkParent: !now });
    } catch (error) {
      this.nicknames.release(agent.nickname);
      throw error;
    }
    return this.buildAndStart(agent, request);
  }

  /** A `spawn_agent` child waits in line (status `queued`), then is built and started in the background. */
  private queueSpawn(agent: ManagedAgent, request: SpawnRequest): void {
    agent.status = { state: "queued" };
    this.agents.set(agent.id, agent);
    void this.takeSlot(agent, request, { signal: agent.controller.signal, parkParent: false })
      .then(() => this.buildAndStart(agent, request, true))
      .catch((error: unknown) => {
        if (!isFinal(agent.status)) this.finish(agent, { state: "errored", message: errorMessage(error) });
      });
  }

  /** Takes the agent's slots, in line when they are busy (the spawning parent waits meanwhile). */
  private async takeSlot(
    agent: ManagedAgent,
    request: SpawnRequest,
    options: { signal: AbortSignal | undefined; parkParent: boolean },
  ) {
    const parent = request.parent;
    const role = request.roleName?.trim() || "default";
    const take = () =>
      this.slots.acquire(agent.id, agent.parentId, agent.pool, {
        signal: options.signal,
        onQueued: (reason, position) =>
          this.options.emit({
            type: "subagent-queued",
            agent: parent,
            role,
            limit: reason === "parent" ? this.slots.parentLimit(agent.pool) : this.slots.maxRunning,
            waiting: position,
            reason,
            childId: agent.id,
            nickname: agent.nickname,
          }),
      });
    await (options.parkParent ? this.whileWaiting(parent.agentId, take) : take());
    if (isFinal(agent.status)) {
      // Closed while it waited: the slot it was just given goes on.
      this.slots.release(agent.id, agent.parentId, agent.pool);
      throw new SubagentError("subagent_aborted", "the agent was closed before it started");
    }
    agent.holdsSlot = true;
  }

  private async buildAndStart(
    agent: ManagedAgent,
    request: SpawnRequest,
    keepOnFailure = false,
  ): Promise<{ agentId: string; nickname: string; role: string; unknownRole: boolean; model: string }> {
    const depth = agent.depth;
    if (agent.status.state === "queued") agent.status = { state: "pending_init" };
    this.agents.set(agent.id, agent);
    let built: BuiltChild;
    try {
      built = await this.options.factory.createChild({
        agentId: agent.id,
        nickname: agent.nickname,
        depth,
        parentId: agent.parentId,
        roleName: request.roleName?.trim() || undefined,
        model: request.model,
        forkTurns: request.forkTurns,
        budget: request.budget,
        isolation: request.isolation,
        ...(request.isolated ? { isolated: true } : {}),
        takePendingMessages: () => agent.pending.splice(0),
      });
    } catch (error) {
      this.releaseSlot(agent);
      // A child that waited in line stays, errored, so its parent's `wait` learns why.
      if (!keepOnFailure) {
        this.agents.delete(agent.id);
        this.nicknames.release(agent.nickname);
      }
      throw error;
    }
    agent.context = built.context;
    agent.role = built.role;
    agent.model = built.model;
    agent.budget = built.budget;
    agent.worktree = built.worktree;
    if (isFinal(agent.status)) {
      // Closed while it was being built: it never starts.
      return {
        agentId: agent.id,
        nickname: agent.nickname,
        role: agent.role,
        unknownRole: built.unknownRole,
        model: agent.model,
      };
    }
    this.options.emit({
      type: "subagent-spawned",
      agent: request.parent,
      childId: agent.id,
      nickname: agent.nickname,
      role: agent.role,
      depth,
      unknownRole: built.unknownRole,
      model: agent.model,
      ...(built.budget ? { budget: built.budget } : {}),
      ...(built.worktree ? { worktree: { branch: built.worktree.branch, path: built.worktree.path } } : {}),
      task: request.message,
      ...(request.callId ? { callId: request.callId } : {}),
    });
    this.start(agent, request.message);
    return {
      agentId: agent.id,
      nickname: agent.nickname,
      role: agent.role,
      unknownRole: built.unknownRole,
      model: agent.model,
    };
  }

  /**
   * Resolves with the agent's status once it is final (no timeout: the `task` tool's wait).
   * Aborting `signal` closes the agent first, so the status is then `shutdown`.
   */
  async waitUntilFinal(id: string, signal?: AbortSignal): Promise<AgentStatus> {
    const agent = this.require(id);
    return this.whileWaiting(agent.parentId, async () => {
      while (!isFinal(agent.status)) {
        if (signal?.aborted) this.close(id);
        else await this.nextChange(60_000, signal);
      }
      return agent.status;
    });
  }

  /** Drops a finished agent and its subtree from memory (closing any descendant still running). */
  forget(id: string): void {
    const agent = this.agents.get(id);
    if (!agent) return;
    for (const childId of this.childrenOf(id)) {
      this.close(childId);
      this.forget(childId);
    }
    if (!isFinal(agent.status)) return;
    this.retireUsage(agent);
    this.agents.delete(id);
    this.options.budgets?.forget(id);
    this.savedThreads.delete(id);
    this.nicknames.release(agent.nickname);
    this.options.onForget?.(id);
    for (const reported of this.reported.values()) reported.delete(id);
  }

  /** Queues a message for a running agent; its next model request contains it. */
  sendInput(id: string, message: string): { status: "sent"; nickname: string } {
    const agent = this.require(id);
    if (!message.trim())
      throw new SubagentError("subagent_empty_message", "empty message can't be sent to an agent");
    if (isFinal(agent.status)) {
      throw new SubagentError(
        "subagent_final",
        `Agent ${id} (${agent.nickname}) is in final state: ${formatStatus(agent.status)}. Use resume_agent to give it more work.`,
      );
    }
    agent.pending.push({ role: "user", content: message });
    return { status: "sent", nickname: agent.nickname };
  }

  /** Cancels the agent and all its descendants; each ends `shutdown` and frees its slot once. */
  close(id: string): { status: string; nickname: string } {
    const agent = this.require(id);
    for (const child of this.agents.values()) if (child.parentId === id) this.close(child.id);
    if (!isFinal(agent.status)) {
      agent.controller.abort();
      this.finish(agent, { state: "shutdown" });
    }
    return { status: formatStatus(agent.status), nickname: agent.nickname };
  }

  /** Re-runs a finished agent on a new message with its whole conversation; it takes a slot again. */
  async resume(id: string, message: string): Promise<{ status: string; nickname: string }> {
    const agent = this.require(id);
    if (!isFinal(agent.status)) {
      throw new SubagentError(
        "subagent_running",
        `Agent ${id} (${agent.nickname}) is still ${formatStatus(agent.status)}; use send_input to give it more work.`,
      );
    }
    if (!message.trim())
      throw new SubagentError("subagent_empty_message", "empty message can't be sent to an agent");
    const previous = agent.status;
    agent.pool = "threads";
    const take = () => this.slots.acquire(agent.id, agent.parentId, "threads");
    await (this.slots.canStartNow(agent.parentId, "threads")
      ? take()
      : this.whileWaiting(agent.parentId, take));
    if (!isFinal(agent.status)) {
      this.slots.release(agent.id, agent.parentId, "threads");
      throw new SubagentError("subagent_running", `Agent ${id} (${agent.nickname}) was resumed meanwhile.`);
    }
    agent.holdsSlot = true;
    agent.controller = new AbortController();
    agent.status = { state: "pending_init" };
    // Its next completion is news to everyone waiting.
    for (const reported of this.reported.values()) reported.delete(id);
    if (!agent.context) {
      try {
        const built = await this.options.factory.createChild({
          agentId: agent.id,
          nickname: agent.nickname,
          depth: agent.depth,
          parentId: agent.parentId,
          roleName: agent.role,
          model: agent.model || undefined,
          forkTurns: undefined,
          thread: this.savedThreads.get(agent.id) ?? [],
          takePendingMessages: () => agent.pending.splice(0),
        });
        agent.context = built.context;
        agent.budget = built.budget;
      } catch (error) {
        // Could not be rebuilt: it stays as it was (its saved result is kept).
        agent.status = previous;
        this.releaseSlot(agent);
        throw error;
      }
    }
    if (isFinal(agent.status)) return { status: formatStatus(agent.status), nickname: agent.nickname };
    // A resumed agent gets its budget afresh (its wall clock restarts; what it spent still counts).
    else if (agent.context) this.options.budgets?.register(agent.id, agent.parentId, agent.budget);
    this.start(agent, message);
    return { status: formatStatus(agent.status), nickname: agent.nickname };
  }

  /** Waits for subagents to finish; see WaitRequest. Never throws for unknown ids (`not_found`). */
  async wait(request: WaitRequest): Promise<{ status: Record<string, string>; timed_out: boolean }> {
    return this.whileWaiting(request.callerId, () => this.waitForChildren(request));
  }

  private async waitForChildren(
    request: WaitRequest,
  ): Promise<{ status: Record<string, string>; timed_out: boolean }> {
    const ids =
      request.ids && request.ids.length > 0 ? [...request.ids] : this.waitableChildren(request.callerId);
    const timeoutMs = Math.min(
      WAIT_MAX_MS,
      Math.max(WAIT_MIN_MS, Math.round(request.timeoutMs ?? WAIT_DEFAULT_MS)),
    );
    const mode = request.mode ?? "any";
    const reported = this.reportedTo(request.callerId);
    const statusOf = (id: string) => this.agents.get(id)?.status ?? { state: "not_found" as const };
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const final = ids.filter((id) => isFinal(statusOf(id)));
      const fresh = final.filter((id) => !reported.has(id));
      const anyActive = final.length < ids.length;
      const done = mode === "all" ? !anyActive : fresh.length > 0 || !anyActive;
      if (done || ids.length === 0) {
        const shown = mode === "any" && fresh.length > 0 ? fresh : ids;
        for (const id of final) reported.add(id);
        return {
          status: Object.fromEntries(shown.map((id) => [id, statusWithResult(statusOf(id))])),
          timed_out: false,
        };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0 || request.signal?.aborted) {
        return {
          status: Object.fromEntries(ids.map((id) => [id, formatStatus(statusOf(id))])),
          timed_out: true,
        };
      }
      await this.nextChange(remaining, request.signal);
    }
  }

  /**
   * The children `wait` without ids covers: those running, and those whose end the caller has not
   * heard yet. A child whose end `wait` already reported (an earlier prompt's agent) is left out.
   */
  waitableChildren(callerId: string): string[] {
    const reported = this.reportedTo(callerId);
    return this.childrenOf(callerId).filter((id) => {
      const status = this.agents.get(id)?.status;
      return !(status && isFinal(status) && reported.has(id));
    });
  }

  /** Ids of the agent's direct children, oldest first. */
  childrenOf(parentId: string): string[] {
    return [...this.agents.values()].filter((agent) => agent.parentId === parentId).map((agent) => agent.id);
  }

  info(id: string): ManagedAgentInfo | undefined {
    const agent = this.agents.get(id);
    return agent ? this.describe(agent) : undefined;
  }

  list(): ManagedAgentInfo[] {
    return [...this.agents.values()].map((agent) => this.describe(agent));
  }

  /** Usage of an agent and every descendant. */
  usageOf(id: string): { usage: Usage; costUsd: number } {
    const agent = this.agents.get(id);
    const retired = this.retiredUsage.get(id);
    let usage = addUsage(agent?.usage ?? emptyUsage(), retired?.usage ?? emptyUsage());
    let costUsd = (agent?.costUsd ?? 0) + (retired?.costUsd ?? 0);
    for (const childId of this.childrenOf(id)) {
      const child = this.usageOf(childId);
      usage = addUsage(usage, child.usage);
      costUsd += child.costUsd;
    }
    return { usage, costUsd };
  }

  /**
   * Cancels everything (end of session) and resolves once every agent's loop has stopped, so their
   * threads are consistent and their usage counted before the session is saved.
   */
  async closeAll(): Promise<void> {
    for (const agent of this.agents.values()) if (!isFinal(agent.status)) this.close(agent.id);
    await Promise.all([...this.running.values()]);
  }

  /** Each agent's running loop, until it ends. */
  private readonly running = new Map<string, Promise<void>>();

  /** The children's threads, for saving with the parent session. */
  snapshot(): Record<string, SavedAgentThread> {
    const saved: Record<string, SavedAgentThread> = {};
    for (const agent of this.agents.values()) {
      const entry: SavedAgentThread = {
        agentId: agent.id,
        nickname: agent.nickname,
        role: agent.role,
        depth: agent.depth,
        parentId: agent.parentId,
        status: formatStatus(agent.status),
        model: agent.model,
        messages: agent.context?.thread ?? this.savedThreads.get(agent.id) ?? [],
      };
      if (agent.status.state === "completed" && agent.status.result) entry.result = agent.status.result;
      const subtree = this.usageOf(agent.id);
      entry.usage = agent.usage;
      entry.costUsd = agent.costUsd;
      entry.subtreeUsage = subtree.usage;
      entry.subtreeCostUsd = subtree.costUsd;
      const budget = this.options.budgets?.report(agent.id) ?? agent.savedBudget;
      if (budget) entry.budget = budget;
      saved[agent.id] = entry;
    }
    return saved;
  }

  private readonly savedThreads = new Map<string, ModelMessage[]>();

  /**
   * Brings back agents of a saved session as finished agents, so `resume_agent` works after
   * `--continue`, with their saved usage (a resumed agent adds to it).
   */
  restore(saved: Record<string, SavedAgentThread>): void {
    const forgotten = forgottenUsageByAgent(saved);
    for (const entry of Object.values(saved)) {
      if (this.agents.has(entry.agentId)) continue;
      this.savedThreads.set(entry.agentId, entry.messages);
      this.nicknames.reserve(entry.nickname);
      const status: AgentStatus = entry.status.startsWith("errored")
        ? { state: "errored", message: entry.status.replace(/^errored: /, "") }
        : entry.status === "shutdown" || entry.status === "running" || entry.status === "pending_init"
          ? { state: "shutdown" }
          : entry.result !== undefined
            ? { state: "completed", result: entry.result }
            : { state: "completed" };
      this.agents.set(entry.agentId, {
        id: entry.agentId,
        nickname: entry.nickname,
        role: entry.role,
        model: entry.model,
        depth: entry.depth,
        parentId: entry.parentId,
        status,
        context: undefined,
        controller: new AbortController(),
        pending: [],
        holdsSlot: false,
        pool: "threads",
        ...savedOwnUsage(entry),
        ...(entry.budget ? { savedBudget: entry.budget } : {}),
      });
      const retired = forgotten.get(entry.agentId);
      if (retired) this.retiredUsage.set(entry.agentId, retired);
    }
  }

  private start(agent: ManagedAgent, message: string): void {
    const context = agent.context!;
    const signal = agent.controller.signal;
    this.setStatus(agent, { state: "running" });
    this.options.onStart?.(this.describe(agent));
    const run = (async () => {
      let final: AgentStatus;
      try {
        let input: TurnInput = message;
        let lastError: string | undefined;
        let result: Awaited<ReturnType<ReturnType<typeof runTurn>["next"]>>["value"];
        for (;;) {
          const turn = runTurn(context, input, { signal });
          let next = await turn.next();
          while (!next.done) {
            const event = next.value;
            if (event.type === "error") lastError = event.message;
            // Usage is counted per step, so a closed agent's finished steps still count.
            if (event.type === "usage" && event.agent.agentId === agent.id) {
              agent.usage = addUsage(agent.usage, event.usage);
              agent.costUsd += event.costUsd;
            }
            // Its turns too: hosts show each agent's turns (and their footers) from these.
            this.options.emit(event);
            next = await turn.next();
          }
          result = next.value;
          // A message sent while the final answer was being written is not dropped: it starts
          // another turn before the agent reports completion.
          const queued = agent.pending.shift();
          if (result.reason !== "completed" || !queued || signal.aborted) {
            if (queued) agent.pending.unshift(queued);
            break;
          }
          input = queued.role === "user" ? queued.content : JSON.stringify(queued.content);
        }
        if (result.reason === "completed") final = { state: "completed", result: result.text };
        else if (result.reason === "aborted") final = { state: "shutdown" };
        else if (result.reason === "max-steps")
          final = { state: "errored", message: `reached its step limit (${context.maxSteps})` };
        else if (result.reason === "budget") {
          const why = this.options.budgets?.stopReason(agent.id) ?? "its budget ran out";
          const partial = partialAnswer(context);
          final = { state: "budget_exhausted", message: why, ...(partial ? { result: partial } : {}) };
        } else final = { state: "errored", message: lastError ?? "the model request failed" };
      } catch (error) {
        final = { state: "errored", message: errorMessage(error) };
      }
      // Its changes go to its branch; the parent's result says where (nothing reaches its tree yet).
      const waiting = agent.worktree
        ? await this.worktrees.settle(agent.worktree, this.options.emit)
        : undefined;
      agent.worktree = undefined;
      if (waiting && (final.state === "completed" || final.state === "budget_exhausted"))
        final = { ...final, result: `${final.result ?? ""}\n\n${this.worktrees.describe(waiting)}`.trim() };
      try {
        if (!isFinal(agent.status)) this.finish(agent, final, waiting);
      } catch (error) {
        // A listener failing must not become an unhandled rejection (that ends the process).
        this.options.emit({
          type: "notice",
          agent: agent.context?.agent ?? { agentId: agent.id, depth: agent.depth },
          message: `subagent ${agent.nickname}: ${errorMessage(error)}`,
        });
      }
    })();
    this.running.set(agent.id, run);
    void run.finally(() => {
      if (this.running.get(agent.id) === run) this.running.delete(agent.id);
    });
  }

  private finish(agent: ManagedAgent, status: AgentStatus, worktree?: WorktreeRecord): void {
    this.setStatus(agent, status);
    this.releaseSlot(agent);
    this.forgetOldFinished();
    const parent: AgentTag = this.tagOf(agent.parentId);
    const { usage, costUsd } = this.usageOf(agent.id);
    const budget = this.options.budgets?.report(agent.id);
    // Stopped by a budget: its subagents stop with it.
    if (status.state === "budget_exhausted")
      for (const childId of this.childrenOf(agent.id)) this.close(childId);
    const event: AgentEvent = {
      type: "subagent-completed",
      agent: parent,
      childId: agent.id,
      nickname: agent.nickname,
      role: agent.role,
      status: formatStatus(status),
      child: this.tagOf(agent.id),
      state: subagentState(status),
      usage,
      costUsd,
      ...(budget ? { budget } : {}),
      ...(worktree
        ? {
            worktree: {
              branch: worktree.branch,
              path: worktree.path,
              base: worktree.base,
              diffStat: worktree.diffStat,
            },
          }
        : {}),
    };
    if ((status.state === "completed" || status.state === "budget_exhausted") && status.result !== undefined)
      event.result = status.result;
    this.options.emit(event);
    this.options.onEnd?.(this.describe(agent));
  }

  /** Bounds memory in long sessions: drops the oldest finished agents beyond the retention cap. */
  private forgetOldFinished(): void {
    const finished = [...this.agents.values()].filter((agent) => isFinal(agent.status));
    for (const agent of finished.slice(0, Math.max(0, finished.length - MAX_RETAINED_FINISHED_AGENTS))) {
      if (this.childrenOf(agent.id).some((id) => !isFinal(this.agents.get(id)!.status))) continue;
      this.retireUsage(agent);
      this.agents.delete(agent.id);
      this.savedThreads.delete(agent.id);
      this.nicknames.release(agent.nickname);
      this.options.onForget?.(agent.id);
      for (const reported of this.reported.values()) reported.delete(agent.id);
    }
  }

  /** Moves a departing agent's usage (its subtree's included) to its parent's retired total. */
  private retireUsage(agent: ManagedAgent): void {
    const own = this.usageOf(agent.id);
    const earlier = this.retiredUsage.get(agent.parentId);
    this.retiredUsage.set(agent.parentId, {
      usage: addUsage(earlier?.usage ?? emptyUsage(), own.usage),
      costUsd: (earlier?.costUsd ?? 0) + own.costUsd,
    });
    this.retiredUsage.delete(agent.id);
  }

  private setStatus(agent: ManagedAgent, status: AgentStatus): void {
    agent.status = status;
    this.options.emit({
      type: "subagent-status-changed",
      agent: this.tagOf(agent.parentId),
      childId: agent.id,
      nickname: agent.nickname,
      status: formatStatus(status),
      child: this.tagOf(agent.id),
      state: subagentState(status),
    });
    for (const wake of [...this.waiters]) wake();
  }

  private releaseSlot(agent: ManagedAgent): void {
    if (!agent.holdsSlot) return;
    agent.holdsSlot = false;
    this.slots.release(agent.id, agent.parentId, agent.pool);
  }

  private require(id: string): ManagedAgent {
    const agent = this.agents.get(id);
    if (!agent) throw new SubagentError("subagent_not_found", `Agent with id ${id} not found`);
    return agent;
  }

  private reportedTo(callerId: string): Set<string> {
    let set = this.reported.get(callerId);
    if (!set) {
      set = new Set();
      this.reported.set(callerId, set);
    }
    return set;
  }

  private nextChange(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private tagOf(agentId: string): AgentTag {
    const agent = this.agents.get(agentId);
    if (!agent) return { agentId, depth: 0 };
    return { agentId: agent.id, depth: agent.depth, role: agent.role, nickname: agent.nickname };
  }

  private describe(agent: ManagedAgent): ManagedAgentInfo {
    const info: ManagedAgentInfo = {
      id: agent.id,
      nickname: agent.nickname,
      role: agent.role,
      depth: agent.depth,
      parentId: agent.parentId,
      status: formatStatus(agent.status),
      model: agent.model,
    };
    if (agent.status.state === "completed" && agent.status.result !== undefined)
      info.result = agent.status.result;
    return info;
  }
}

/** What an agent stopped mid-task had written this turn: its assistant texts since the turn's request. */
function partialAnswer(context: AgentContext): string {
  const start = context.turnRequest ? context.thread.lastIndexOf(context.turnRequest) : -1;
  const texts: string[] = [];
  for (const message of context.thread.slice(start + 1)) {
    if (message.role !== "assistant") continue;
    const content = message.content;
    if (typeof content === "string") texts.push(content);
    else for (const part of content) if (part.type === "text" && part.text.trim()) texts.push(part.text);
  }
  return texts.join("\n").trim();
}
