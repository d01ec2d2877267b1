import { SubagentError } from "./subagent-error.js";

/** Which per-parent limit a child counts against: `spawn_agent`'s threads or `task`'s own pool. */
export type SlotPool = "threads" | "tasks";

/** The limits of one session's subagents (config `agent.agents.*`; defaults and why: README). */
export interface SlotLimits {
  /** `spawn_agent` children one agent may run at once (`max_threads`). */
  threadsPerParent: number;
  /** `task` children one agent may run at once (`max_tasks`). */
  tasksPerParent: number;
  /** Subagents running at once in the session (`max_running`); an agent waiting for its children is not counted. */
  maxRunning: number;
  /** Spawns that may wait for a slot (`max_queued`); one past it is refused. */
  maxQueued: number;
}

/** Why a spawn waits: its parent's own limit, or the session's. */
export type QueueReason = "parent" | "session";

interface Waiter {
  /** The agent that waits: a new child, or a parked agent coming back. */
  agentId: string;
  parentId: string;
  pool: SlotPool | undefined;
  /** Agents coming back from a wait go first: they are further along than new spawns. */
  priority: boolean;
  grant: () => void;
}

/**
 * Slots of a session's subagents: per parent (how many children one agent runs at once) and for the
 * session (how many agents run at once). A child holds its parent slot from its start until it is
 * final, and a session slot while it runs — but an agent that waits for its own children (`wait`,
 * `task`, a spawn of its own in line) parks, lending its session slot to them, and takes one back
 * (ahead of new spawns) when its wait ends. So a nested fan-out cannot deadlock: whoever holds a
 * session slot is not waiting on anyone. Past the slots a spawn waits in line, up to `maxQueued`.
 * Every method is synchronous up to the returned promise, so concurrent callers cannot overshoot.
 */
export class SlotLimiter {
  private readonly perParent = new Map<string, { threads: number; tasks: number }>();
  /** Agents holding a session slot now. */
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** Agents that hold a session slot when not parked, with how many waits park them now. */
  private readonly members = new Map<string, { parked: number }>();

  constructor(private readonly limits: SlotLimits) {}

  /** Agents holding a session slot (children running and not waiting for their own). */
  runningCount(): number {
    return this.running;
  }

  /** Spawns waiting for a slot. */
  queuedCount(): number {
    return this.queue.filter((waiter) => waiter.pool !== undefined).length;
  }

  /** Why a spawn for `parentId` would wait now, or undefined when it can start at once. */
  blockedBy(parentId: string, pool: SlotPool): QueueReason | undefined {
    if (this.parentCount(parentId, pool) >= this.parentLimit(pool)) return "parent";
    if (this.running >= this.limits.maxRunning) return "session";
    return undefined;
  }

  /** Whether a spawn for `parentId` would start at once (its limits allow it and nobody is in line). */
  canStartNow(parentId: string, pool: SlotPool): boolean {
    return this.blockedBy(parentId, pool) === undefined && this.queue.length === 0;
  }

  /** Throws `subagent_queue_full` when `maxQueued` spawns already wait. */
  assertRoomInLine(): void {
    if (this.queuedCount() < Math.max(0, this.limits.maxQueued)) return;
    throw new SubagentError(
      "subagent_queue_full",
      `Agent queue full: ${this.queuedCount()} spawns already wait for a slot (agent.agents.max_queued). Wait for your agents to finish, or do this yourself.`,
    );
  }

  /** The per-parent limit of a pool. */
  parentLimit(pool: SlotPool): number {
    return Math.max(1, pool === "threads" ? this.limits.threadsPerParent : this.limits.tasksPerParent);
  }

  get maxRunning(): number {
    return Math.max(1, this.limits.maxRunning);
  }

  /**
   * Takes a parent slot and a session slot for a new child, at once when both are free, else in
   * line; throws `subagent_queue_full` when `maxQueued` spawns already wait. `onQueued` runs when
   * it has to wait, with why and its place in line. Aborting `signal` leaves the line.
   */
  async acquire(
    agentId: string,
    parentId: string,
    pool: SlotPool,
    options: {
      signal?: AbortSignal | undefined;
      onQueued?: (reason: QueueReason, position: number) => void;
    } = {},
  ): Promise<void> {
    const reason = this.blockedBy(parentId, pool);
    if (this.canStartNow(parentId, pool)) {
      this.take(agentId, parentId, pool);
      return;
    }
    this.assertRoomInLine();
    if (options.signal?.aborted) throw new SubagentError("subagent_aborted", "the delegation was cancelled");
    await this.enqueue({ agentId, parentId, pool, priority: false }, options.signal, () =>
      options.onQueued?.(reason ?? "session", this.queuedCount()),
    );
  }

  /**
   * Gives back a child's slots when it is final (or its spawn failed after `acquire`); a parked
   * child gives back only its parent slot. Call once per successful `acquire`.
   */
  release(agentId: string, parentId: string, pool: SlotPool): void {
    const counts = this.perParent.get(parentId);
    if (counts && counts[pool] > 0) counts[pool] -= 1;
    const member = this.members.get(agentId);
    this.members.delete(agentId);
    if (member && member.parked === 0) this.running -= 1;
    this.pump();
  }

  /**
   * `agentId` waits for its own children until the returned function is called: its session slot
   * goes to them meanwhile. The returned function resolves once it holds a slot again. Agents the
   * limiter does not know (the lead) park for free.
   */
  park(agentId: string): () => Promise<void> {
    const member = this.members.get(agentId);
    if (!member) return async () => {};
    member.parked += 1;
    if (member.parked === 1) {
      this.running -= 1;
      this.pump();
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      const current = this.members.get(agentId);
      if (current !== member) return;
      member.parked -= 1;
      if (member.parked > 0) return;
      // Keeps counting as parked until it holds a slot again, so a close meanwhile releases nothing.
      member.parked = 1;
      if (this.running < this.maxRunning && !this.queue.some((waiter) => waiter.priority)) {
        member.parked = 0;
        this.running += 1;
        return;
      }
      await this.enqueue(
        { agentId, parentId: agentId, pool: undefined, priority: true },
        undefined,
        () => {},
      );
      if (this.members.get(agentId) === member) member.parked = 0;
      else {
        // Released while it waited to come back: the slot it was just given goes on.
        this.running -= 1;
        this.pump();
      }
    };
  }

  private enqueue(
    entry: Omit<Waiter, "grant">,
    signal: AbortSignal | undefined,
    announce: () => void,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        ...entry,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(
          new SubagentError("subagent_aborted", "the delegation was cancelled while it waited for a slot"),
        );
      };
      if (entry.priority) this.queue.splice(this.queue.filter((w) => w.priority).length, 0, waiter);
      else this.queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
      announce();
      this.pump();
    });
  }

  /** Starts every waiter whose limits now allow it, in line order (a blocked one does not block others). */
  private pump(): void {
    for (let index = 0; index < this.queue.length; ) {
      const waiter = this.queue[index]!;
      const free =
        this.running < this.maxRunning &&
        (waiter.pool === undefined ||
          this.parentCount(waiter.parentId, waiter.pool) < this.parentLimit(waiter.pool));
      if (!free) {
        index += 1;
        continue;
      }
      this.queue.splice(index, 1);
      if (waiter.pool === undefined) this.running += 1;
      else this.take(waiter.agentId, waiter.parentId, waiter.pool);
      waiter.grant();
    }
  }

  private take(agentId: string, parentId: string, pool: SlotPool): void {
    this.members.set(agentId, { parked: 0 });
    let counts = this.perParent.get(parentId);
    if (!counts) {
      counts = { threads: 0, tasks: 0 };
      this.perParent.set(parentId, counts);
    }
    counts[pool] += 1;
    this.running += 1;
  }

  private parentCount(parentId: string, pool: SlotPool): number {
    return this.perParent.get(parentId)?.[pool] ?? 0;
  }
}
