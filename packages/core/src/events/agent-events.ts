import type { FinishReason, ProviderError, Usage } from "@nyzhi/provider";
import type { BudgetDimension, BudgetReport, BudgetSpec } from "../budgets/budget-types.js";
import type { SubtreeTotal, UsageFigures } from "../usage/usage-ledger.js";
import type { TeamChange, TeamSummary } from "./team-view.js";

/** Which agent an event came from. The lead's events carry depth 0 and no nickname. */
export interface AgentTag {
  agentId: string;
  depth: number;
  role?: string;
  nickname?: string;
}

/**
 * What a step whose stream broke off mid-message had already streamed: this agent's `text-delta`,
 * `reasoning-delta`, `tool-call-start` and `tool-call-delta` events since its `step-start` (or its
 * previous retry). Consumers drop them; none of it entered the thread, and none of the calls runs.
 */
export interface RetryDiscard {
  /** The partial text: those `text-delta`s joined ("" when there were none). */
  text: string;
  /** Whether reasoning was streamed. */
  reasoning: boolean;
  /** The tool calls begun, whole or not; the retried step makes its own. */
  toolCalls: { callId: string; name: string }[];
}

/**
 * Where a subagent or teammate is in its life, for hosts: `pending` (queued or starting), `running`,
 * `idle` (a teammate between turns), `completed`, `errored` (a failure or a budget that ran out),
 * `shutdown` (stopped). `detail`: a completed agent's answer preview, an error's message.
 */
export interface SubagentState {
  lifecycle: "pending" | "running" | "idle" | "completed" | "errored" | "shutdown";
  detail?: string;
}

/** Where a `notice` comes from; absent for the runtime's own (compaction, fallbacks). */
export type NoticeSource = "config" | "workspace" | "mcp" | "worktrees" | "permissions";

/** Why a turn ended. `budget`: the agent's budget (or an enclosing one, the session's) ran out. */
/** Where an autopilot run is: its five working phases, then `complete`, or `cancelled`. */
export type AutopilotPhase =
  | "expansion"
  | "planning"
  | "execution"
  | "qa"
  | "validation"
  | "complete"
  | "cancelled";

export type TurnEndReason = "completed" | "max-steps" | "aborted" | "error" | "budget";

/**
 * Everything an agent reports while it works, one entry per event type. Hosts (TUI, `nyz exec`,
 * library users) subscribe to these; the loop knows nothing of terminals.
 */
export interface AgentEvents {
  /** A turn began with this user input. */
  "turn-start": { turnId: string; input: string };
  /** A model step (one model request plus its tool calls) began; `step` counts from 1. */
  "step-start": { step: number };
  /** Streamed assistant text. */
  "text-delta": { delta: string };
  /** Streamed reasoning (thinking) text. */
  "reasoning-delta": { delta: string };
  /** The model began a tool call; arguments follow in `tool-call-delta`. */
  "tool-call-start": { callId: string; name: string };
  /** A fragment of a tool call's arguments JSON. */
  "tool-call-delta": { callId: string; delta: string };
  /** A tool is about to run with these validated arguments. */
  "tool-start": { callId: string; name: string; input: unknown };
  /** Streamed output of a running tool (e.g. `bash`). */
  "tool-output": { callId: string; name: string; text: string };
  /** A tool finished (or was refused); `output` is the full text the model receives. */
  "tool-end": {
    callId: string;
    name: string;
    output: string;
    isError: boolean;
    durationMs: number;
    /** Set when the call never ran: why (deny rule, sandbox, user denial, unknown tool …). */
    refused?: "unknown-tool" | "invalid-arguments" | "denied" | "not-allowed" | "cancelled";
    metadata?: Record<string, unknown>;
  };
  /**
   * A call needs the user's approval and the host is asked (the permission_request hooks did not
   * answer it): an interactive host answers with `session.answer(id, …)`. Without one it is denied
   * at once (`approval-resolved` follows).
   */
  "approval-requested": { id: string; callId: string; tool: string; input: unknown; preview: string };
  /** The approval was answered (or refused because nobody could answer). */
  "approval-resolved": { callId: string; tool: string; approved: boolean; reason: string };
  /**
   * The provider call failed and will be retried after `waitMs` (ms). With `discard`, the stream
   * broke off mid-message and the whole step is retried: what it had streamed is void.
   */
  retry: { attempt: number; maxAttempts: number; waitMs: number; reason: string; discard?: RetryDiscard };
  /** Token usage and cost of one model step. Cost in US dollars (0 when prices are unknown). */
  usage: {
    step: number;
    usage: Usage;
    costUsd: number;
    /** This agent's own requests so far in this process (core's sum; its descendants not included). */
    agentTotal: { usage: Usage; costUsd: number };
    /**
     * Core's subtree totals with this step counted: this agent's, then its parent's, … up to the
     * lead's (last). Each is that agent's own requests plus its descendants' in this process; the
     * lead's `descendants` is what every subagent and teammate spent. Hosts show these, never sum.
     */
    subtreeTotals: SubtreeTotal[];
    /** The session's totals with this step counted (core's sum: every run, agent and embedder). */
    sessionTotal: UsageFigures;
  };
  /** A model step ended. */
  "step-end": { step: number; finishReason: FinishReason | "aborted" | "error"; toolCalls: number };
  /**
   * A note for the user: from the runtime (compaction, skipped files, fallbacks; no `source`), or
   * from `config`, the `workspace` (rules, roles, skills, commands), `mcp` (a server failed, timed
   * out or crashed: `server`, `kind`), `worktrees`, `permissions` (an "allow always" rule added).
   * `level` "warning" for what went wrong (default "info").
   */
  notice: {
    message: string;
    source?: NoticeSource;
    level?: "info" | "warning";
    /** MCP notices: the server and what happened to it. */
    server?: string;
    kind?: string;
  };
  /** The session is open (its record, before the workspace and MCP servers load): the first event. */
  "session-opened": {
    sessionId: string;
    providerId: string;
    modelId: string;
    /** The session's totals as it opens: what its earlier runs spent (zero for a new session). */
    sessionTotal: UsageFigures;
  };
  /** A lifecycle hook finished; `summary` is for the user (`[hook] <cmd> (ok|exit N|…)`). */
  "hook-result": { event: string; status: string; summary: string };
  /** Messages given to `session.queueMessage` that the lead just received (at a step boundary). */
  "queued-delivered": { texts: string[] };
  /**
   * `ask_user`: the lead asks the person; an interactive host answers with
   * `session.answer(id, { text })` ("" dismisses it).
   */
  question: { id: string; question: string; choices?: string[] };
  /** Something failed; when `fatal`, the turn ends. */
  error: { message: string; code: string; fatal: boolean; error?: ProviderError | Error };
  /** This agent spawned a subagent (it runs in the background). */
  "subagent-spawned": {
    childId: string;
    nickname: string;
    role: string;
    depth: number;
    /** The requested role was not known; the child runs with the default role. */
    unknownRole: boolean;
    model: string;
    /** Its budget, clamped to what its parent's had left; absent for none. */
    budget?: BudgetSpec;
    /** Set when it works in its own git worktree: the branch and the worktree's path. */
    worktree?: { branch: string; path: string };
    /** The message its parent gave it: its task. */
    task?: string;
    /** The parent's tool call that spawned it (`task`, `spawn_agent`), where a call did. */
    callId?: string;
  };
  /**
   * A spawn waits for a slot: its parent already runs `limit` children of that kind
   * (`agent.agents.max_threads` for `spawn_agent`, `max_tasks` for `task`; `reason` "parent"), or
   * `limit` subagents run in the session (`max_running`; "session"). It is `waiting`th in line and
   * starts when a slot frees. A queued `spawn_agent` child has its id and nickname already.
   */
  "subagent-queued": {
    role: string;
    limit: number;
    waiting: number;
    reason?: "parent" | "session";
    childId?: string;
    nickname?: string;
  };
  /**
   * A subagent's or teammate's status changed. `child` is its full tag, `state` the status as data;
   * `status` the same in one line (`pending_init`, `running`, `completed: …`, `errored: …`, `shutdown`;
   * a teammate's `working`, `idle`, `stopped` …).
   */
  "subagent-status-changed": {
    childId: string;
    nickname: string;
    status: string;
    child: AgentTag;
    state: SubagentState;
  };
  /** A subagent reached a final state. Usage and cost cover the child and its own subagents. */
  "subagent-completed": {
    childId: string;
    nickname: string;
    role: string;
    status: string;
    /** Its full tag and its final state as data (see `subagent-status-changed`). */
    child: AgentTag;
    state: SubagentState;
    result?: string;
    usage: Usage;
    costUsd: number;
    /** Its budget at the end: limit, spent, left. */
    budget?: BudgetReport;
    /**
     * Its worktree's changes, waiting for a decision (`merge_agent_changes` /
     * `discard_agent_changes`); absent when it had no worktree or changed nothing (then removed).
     */
    worktree?: { branch: string; path: string; base: string; diffStat: string };
  };
  /**
   * A budget crossed 80 % (`budget-warning`: its owner is told in its next step) — tagged with the
   * budget's owner (the lead for the session's cap).
   */
  "budget-warning": { dimension: BudgetDimension; budget: BudgetReport };
  /** A budget ran out: its owner (and for a subtree budget its descendants) stops after its current tool call. */
  "budget-exhausted": { dimension: BudgetDimension; budget: BudgetReport };
  /**
   * The project's code index did something: `building` (the background first build, after each
   * batch), `updating`/`ready` (changed files re-indexed, or the build finished), `skipped` (too
   * large to build on its own; `message` says how). `embeddingTokens` are what a remote embedder
   * charged for this update (0 for none and local ones), `costUsd` their price in US dollars (0
   * when the model's price is unknown); both count in the session's usage.
   */
  "index-progress": {
    /** `building`: the background first build; `updating`: changed files; `ready`: done; `skipped`: not built. */
    phase: "building" | "updating" | "ready" | "skipped";
    filesDone: number;
    filesTotal: number;
    chunks: number;
    /** Chunks embedded (remote or local) by this update. */
    embedded: number;
    /** Tokens a remote embedder reported for this update (0 for none or local). */
    embeddingTokens: number;
    /** US dollars of those tokens at the embedding model's list price (0 when unknown). */
    costUsd: number;
    message?: string;
    /** The session's totals with this update counted (core's sum). */
    sessionTotal: UsageFigures;
  };
  /**
   * An autopilot run (`/autopilot <idea>`): a phase `started` (the lead's next turn is that phase),
   * or the run `stopped` — `reason` `completed` once every phase ran, else how the phase's turn
   * ended (the phase stays to run again: `/autopilot resume`).
   */
  "autopilot-phase": {
    phase: AutopilotPhase;
    status: "started" | "stopped";
    reason?: "completed" | TurnEndReason;
    idea: string;
  };
  /**
   * The teams the session takes part in changed (tagged with the lead): a member joined or left,
   * a member's status moved, the task board or someone's mail changed — by this process or another
   * sharing the team files (core watches them). `teams` is the whole state as hosts show it now.
   */
  "team-state": { changes: TeamChange[]; teams: readonly TeamSummary[] };
  /**
   * The session's turn is over (the lead's, with the team it followed, saved): how it ended and
   * core's usage totals — `sessionTotal` (every run), `sinceOpen` (this process: `nyz exec`'s run).
   * Always the last event of `session.runTurn`; `nyz exec --json` writes it as its last line.
   */
  "turn-complete": {
    sessionId: string;
    providerId: string;
    modelId: string;
    reason: TurnEndReason;
    /** The final assistant text ("" when the turn failed: a broken-off step's text is no answer). */
    text: string;
    steps: number;
    sessionTotal: UsageFigures;
    sinceOpen: UsageFigures;
    /** The session's cap (`agent.budget`, `--max-budget-usd`), when one is set. */
    budget?: BudgetReport;
  };
  /** The turn ended. `text` is the final assistant text of the last step. */
  "turn-end": {
    turnId: string;
    reason: TurnEndReason;
    steps: number;
    usage: Usage;
    costUsd: number;
    text: string;
  };
}

export type AgentEventType = keyof AgentEvents;

/** One event: `{ type, agent, ...payload }`, discriminated on `type`. */
export type AgentEvent = {
  [Type in AgentEventType]: { type: Type; agent: AgentTag } & AgentEvents[Type];
}[AgentEventType];

export type AgentEventOf<Type extends AgentEventType> = Extract<AgentEvent, { type: Type }>;

/** For exhaustive `switch (event.type)`: a compile error when a case is missing. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled value: ${JSON.stringify(value)}`);
}
