// Over 500 lines on purpose: slots, statuses, waiters and retention are one state machine, and
// keeping every transition of it in this class is what keeps "a slot is released exactly once" true.
import { randomUUID } from "node:crypto";
import { errorMessage, NyzhiError } from "@nyzhi/config";
import { addUsage, emptyUsage, type ModelMessage, type Usage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { runTurn, type TurnInput } from "../agent-loop/run-turn.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { SavedAgentThread } from "../saved-sessions/session-types.js";
import { type AgentStatus, formatStatus, isFinal, statusWithResult } from "./agent-status.js";
import { NicknamePool } from "./nicknames.js";
import { forgottenUsageByAgent, savedOwnUsage } from "./saved-agent-usage.js";

/** A refused lifecycle request; the message is what the model sees. */
export class SubagentError extends NyzhiError {}

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
  /** The manager's queue for `send_input`; the child's loop drains it at each step. */
  takePendingMessages: () => ModelMessage[];
}

/** Builds a child's context: role applied, briefing, fenced tools, model. The runtime implements it. */
export interface ChildFactory {
  /**
   * Throws when the role cannot be spawned (disabled), before any slot is taken, so a refused role
   * says why instead of "limit reached". Optional: without it the role is checked in `createChild`.
   */
  checkRole?(roleName: string | undefined): void;
  createChild(
    request: ChildRequest,
  ): Promise<{ context: AgentContext; role: string; unknownRole: boolean; model: string }>;
}

export interface AgentManagerOptions {
  /** `spawn_agent` agents pending or running at once, across the tree. Default 4. */
  maxThreads: number;
  /**
   * `task` children (isolated, synchronous delegations) running at once, across the tree; a call
   * past it waits for a slot (announced by a `subagent-queued` event) instead of failing.
   * Default 8. They do not count against `maxThreads`.
   */
  maxTasks?: number;
  /** Deepest level a subagent may have: depth 0 (lead) spawns 1, … up to this. Default 2. */
  maxDepth: number;
  factory: ChildFactory;
  /** Where lifecycle events and the children's own events go (tagged with the child's AgentTag). */
  emit: (event: AgentEvent) => void;
  /** Called when a child starts and ends (hooks `subagent_start` / `subagent_end`). */
  onStart?: (agent: ManagedAgentInfo) => void;
  onEnd?: (agent: ManagedAgentInfo) => void;
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
  /** Which limit its slot counts against: `spawn_agent`'s threads or `task`'s own pool. */
  pool: "threads" | "tasks";
  usage: Usage;
  costUsd: number;
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
  private active = 0;
  private activeTasks = 0;
  /** `task` spawns waiting for a slot, first come first served. */
  private readonly taskQueue: Array<() => void> = [];

  constructor(private readonly options: AgentManagerOptions) {}

  /** Agents pending or running now (`spawn_agent` agents and `task` children). */
  activeCount(): number {
    return this.active + this.activeTasks;
  }

  async spawn(
    request: SpawnRequest,
  ): Promise<{ agentId: string; nickname: string; role: string; unknownRole: boolean; model: string }> {
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
    const pool = request.isolated ? "tasks" : "threads";
    if (pool === "tasks") await this.takeTaskSlot(request);
    else this.reserveSlot();
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
      holdsSlot: true,
      pool,
      usage: emptyUsage(),
      costUsd: 0,
    };
    this.agents.set(agent.id, agent);
    let built: Awaited<ReturnType<ChildFactory["createChild"]>>;
    try {
      built = await this.options.factory.createChild({
        agentId: agent.id,
        nickname: agent.nickname,
        depth,
        parentId: agent.parentId,
        roleName: request.roleName?.trim() || undefined,
        model: request.model,
        forkTurns: request.forkTurns,
        ...(request.isolated ? { isolated: true } : {}),
        takePendingMessages: () => agent.pending.splice(0),
      });
    } catch (error) {
      this.agents.delete(agent.id);
      this.releaseSlot(agent);
      this.nicknames.release(agent.nickname);
      throw error;
    }
    agent.context = built.context;
    agent.role = built.role;
    agent.model = built.model;
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
    while (!isFinal(agent.status)) {
      if (signal?.aborted) this.close(id);
      else await this.nextChange(60_000, signal);
    }
    return agent.status;
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
    this.reserveSlot();
    const previous = agent.status;
    agent.holdsSlot = true;
    agent.pool = "threads";
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
      } catch (error) {
        // Could not be rebuilt: it stays as it was (its saved result is kept).
        agent.status = previous;
        this.releaseSlot(agent);
        throw error;
      }
    }
    if (isFinal(agent.status)) return { status: formatStatus(agent.status), nickname: agent.nickname };
    this.start(agent, message);
    return { status: formatStatus(agent.status), nickname: agent.nickname };
  }

  /** Waits for subagents to finish; see WaitRequest. Never throws for unknown ids (`not_found`). */
  async wait(request: WaitRequest): Promise<{ status: Record<string, string>; timed_out: boolean }> {
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
            if (event.type !== "turn-start" && event.type !== "turn-end") this.options.emit(event);
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
        else final = { state: "errored", message: lastError ?? "the model request failed" };
      } catch (error) {
        final = { state: "errored", message: errorMessage(error) };
      }
      try {
        if (!isFinal(agent.status)) this.finish(agent, final);
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

  private finish(agent: ManagedAgent, status: AgentStatus): void {
    this.setStatus(agent, status);
    this.releaseSlot(agent);
    this.forgetOldFinished();
    const parent: AgentTag = this.tagOf(agent.parentId);
    const { usage, costUsd } = this.usageOf(agent.id);
    const event: AgentEvent = {
      type: "subagent-completed",
      agent: parent,
      childId: agent.id,
      nickname: agent.nickname,
      role: agent.role,
      status: formatStatus(status),
      usage,
      costUsd,
    };
    if (status.state === "completed" && status.result !== undefined) event.result = status.result;
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
    });
    for (const wake of [...this.waiters]) wake();
  }

  private reserveSlot(): void {
    if (this.active >= this.options.maxThreads) {
      throw new SubagentError(
        "subagent_limit",
        `Agent limit (${this.options.maxThreads}) reached. Wait for existing agents to complete or close them first.`,
      );
    }
    this.active += 1;
  }

  private releaseSlot(agent: ManagedAgent): void {
    if (!agent.holdsSlot) return;
    agent.holdsSlot = false;
    if (agent.pool === "threads") {
      this.active -= 1;
      return;
    }
    // The slot passes straight to the next queued `task`, so `activeTasks` stays the same.
    const next = this.taskQueue.shift();
    if (next) next();
    else this.activeTasks -= 1;
  }

  private maxTasks(): number {
    return Math.max(1, this.options.maxTasks ?? DEFAULT_MAX_TASKS);
  }

  /** Takes a `task` slot, waiting in line (announced once by an event) when all are busy. */
  private async takeTaskSlot(request: SpawnRequest): Promise<void> {
    if (this.activeTasks < this.maxTasks()) {
      this.activeTasks += 1;
      return;
    }
    const signal = request.signal;
    if (signal?.aborted) throw new SubagentError("subagent_aborted", "the delegation was cancelled");
    this.options.emit({
      type: "subagent-queued",
      agent: request.parent,
      role: request.roleName?.trim() || "default",
      limit: this.maxTasks(),
      waiting: this.taskQueue.length + 1,
    });
    await new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.taskQueue.indexOf(granted);
        if (index >= 0) this.taskQueue.splice(index, 1);
        reject(
          new SubagentError("subagent_aborted", "the delegation was cancelled while it waited for a slot"),
        );
      };
      this.taskQueue.push(granted);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
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
