import type { Environment, LoadedConfig, NyzhiConfig } from "@nyzhi/config";
import { emptyUsage } from "@nyzhi/provider";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import type { BudgetReport } from "../budgets/budget-types.js";
import type { ChangeTracker } from "../changes/change-tracker.js";
import type { CompactThreadResult } from "../compaction/compact-thread.js";
import type { AgentEvent, AgentEventOf } from "../events/agent-events.js";
import type { McpSession } from "../mcp/mcp-session.js";
import type { ApprovalAnswer } from "../permissions/approval-broker.js";
import type { TodoStore } from "../planning/todo-store.js";
import type { AgentRuntime } from "../runtime/create-agent-runtime.js";
import { followTeam, leadHasTeamMail } from "../runtime/follow-team.js";
import type { ResolvedModel } from "../runtime/model-resolver.js";
import type { SessionJournal } from "../saved-sessions/session-journal.js";
import type { SessionStore } from "../saved-sessions/session-store.js";
import type { SessionRecord } from "../saved-sessions/session-types.js";
import type { UsageFigures, UsageTotals } from "../usage/usage-ledger.js";
import type { WorktreeRecord } from "../worktrees/worktree-records.js";
import { type CatalogueCommand, expandSlashCommand, loadCommandCatalogue } from "./command-catalogue.js";
import { withoutModePrefixes } from "./prompt-modes.js";
import { type SessionAgents, sessionAgents } from "./session-agents.js";
import { type SessionAutopilot, sessionAutopilot } from "./session-autopilot.js";
import { type ContextUsage, compactLead, contextUsage } from "./session-context.js";
import { type CostReport, costReport } from "./session-cost.js";
import { type SessionInput, sessionInput } from "./session-input.js";
import type { SessionModes } from "./session-modes.js";
import { type SessionPermissions, sessionPermissions } from "./session-permissions.js";
import { ThreadRewind } from "./session-rewind.js";
import { type SessionWorkflows, sessionWorkflows } from "./session-workflows.js";

function worktreesOf(runtime: AgentRuntime) {
  if (!runtime.manager) throw new Error("Subagents are off (agent.agents.enabled = false).");
  return runtime.manager.worktrees;
}

const LEAD_ID = "lead";

/** Tokens and cost: the model requests', and the code index's remote embedder's. */
export type SessionUsage = UsageFigures;

/**
 * One open session: the work around each turn that every host needs, done once, here. The
 * `SessionInput` verbs turn what the person types (`@path`, `!command`, images) into turns and
 * rewind the thread.
 */
export interface OpenedSession extends SessionInput {
  readonly id: string;
  readonly record: SessionRecord;
  readonly config: NyzhiConfig;
  readonly projectRoot: string;
  readonly loaded: LoadedConfig;
  /** The session's agents: send to, resume, stop (subagents and teammates alike), the teams' state. */
  readonly agents: SessionAgents;
  /** The files the session's agents changed: `/changes`, `/diff`, `/undo`, `/checkpoint`. */
  readonly changes: ChangeTracker;
  /** The lead's todo list (`/todo`). */
  readonly todos: Pick<TodoStore, "list" | "format">;
  /** The session's MCP servers (`/mcp` lists their state and tools; prompts become commands). */
  readonly mcp: McpSession;
  /**
   * Plan mode, auto-accept edits and thinking: the mode (`cycleMode` is Shift+Tab), the plan the
   * lead wrote in plan mode (`executePlanPrompt`), and the thinking level of the lead's requests.
   * A prompt's `plan:`, `think:`, `deep:` and `ultra:` prefixes change only its own turn.
   */
  readonly modes: SessionModes;
  /**
   * The command workflows (`/status`, `/retry`, `/handoff`, `/resume-work`, `/map`, `/learn`,
   * `/verify` and the prompt workflows), done here so every host does the same.
   */
  readonly workflows: SessionWorkflows;
  /**
   * `/autopilot`: an idea taken through expansion, planning, execution, QA and validation, each a
   * turn of the lead, its state in `.nyzhi/state/autopilot.json` (see `parseAutopilotCommand`).
   */
  readonly autopilot: SessionAutopilot;
  /** The lead's model now (`setModel` changes it). */
  readonly model: { providerId: string; modelId: string };
  /**
   * Runs one user turn (expand a `/command` first with `expandCommand`). With `followTeam`, a
   * lead that is in a team keeps reading its inbox until the team is quiet (headless hosts). The
   * session's usage and record are updated and saved when it ends.
   */
  runTurn(
    input: TurnInput,
    options?: { signal?: AbortSignal; followTeam?: { waitMs: number; timeoutHint?: string } },
  ): AsyncGenerator<AgentEvent, TurnResult>;
  /**
   * A message typed while a turn runs: the lead receives it at its next step boundary (its next
   * model request holds it). Returns how many wait.
   */
  queueMessage(text: string): number;
  /** Queued messages the turn ended without receiving (the host sends them as the next turn). */
  takeQueued(): string[];
  /** This session's model per subagent role (`--subagent-model`, `/subagent-config`). */
  subagentModels(): Readonly<Record<string, string>>;
  /** The next children of `role` use `model` (layered over the role's and config's); undefined resets it. */
  setSubagentModel(role: string, model: string | undefined): void;
  /** `/name args` expanded to its command's prompt (custom command, MCP prompt or skill); other text unchanged. */
  expandCommand(prompt: string): Promise<string>;
  /** The project's slash commands: custom commands, MCP prompts and skills (see `loadCommandCatalogue`). */
  commands(): Promise<CatalogueCommand[]>;
  /** Summarises the older part of the lead's conversation now (`/compact [focus]`) and saves the session. */
  compact(focus?: string): Promise<CompactThreadResult>;
  /** Where the lead's next request's tokens go (estimates; `/context`). */
  contextUsage(): ContextUsage;
  /**
   * Starts the session's code index now if it has not started (the app calls it at the first key
   * typed, so the coming turn's auto-context need not wait); nothing without an index.
   */
  warmUpIndex(): void;
  /** The lead's next requests use this model (`/model`). */
  setModel(spec: string): Promise<{ providerId: string; modelId: string }>;
  /**
   * The session's tokens and cost: earlier runs, the lead, every subagent and teammate, and the
   * code index's remote embedder (its tokens apart, its cost in `costUsd`).
   */
  usage(): SessionUsage;
  /** The same, and this process's part alone (`sinceOpen`): core's one sum, which hosts only read. */
  usageTotals(): UsageTotals;
  /**
   * The event that closes a turn (`session.runTurn` yields it last): how `result` ended, with
   * core's totals. `nyz exec` builds its last line from it, also for a turn that ran no model.
   */
  turnComplete(result: TurnResult): AgentEventOf<"turn-complete">;
  /** `/cost`: the session's tokens and cost per agent (own and subtree) and per model. */
  costReport(): CostReport;
  /** A subagent's worktree changes waiting for a decision, as a unified diff. */
  agentChanges(agentId: string): Promise<string>;
  /** Merges them into the person's tree (uncommitted); a conflict changes nothing and says which files. */
  mergeAgentChanges(agentId: string): Promise<string>;
  /** Discards them: the agent's worktree and branch are removed. */
  discardAgentChanges(agentId: string): Promise<string>;
  /** Agent worktrees whose changes wait for a decision (this run's and earlier runs'). */
  waitingWorktrees(): WorktreeRecord[];
  /** The lead's budget (spent and left against `agent.budget.*` / `--max-budget-usd`); undefined without one. */
  budget(): BudgetReport | undefined;
  /** Whether the lead has unread team mail (an idle host starts a turn to read it, as headless does). */
  hasTeamMail(): Promise<boolean>;
  /**
   * Answers what an event asked: an `approval-requested` (`"allow"`, `"allow-always"`, `"deny"`,
   * `{ deny: reason }`) or a `question` (`{ text }`; "" dismisses it). Returns false when nothing
   * waits under `id` (answered already, or the turn was interrupted).
   */
  answer(id: string, reply: ApprovalAnswer | { text: string }): boolean;
  /** Denies every waiting approval with `reason` and dismisses every waiting question (an interrupt). */
  dismissPending(reason: string): void;
  /** The rules in force (trust mode, sandbox, `[agent.trust]`, this session's "allow always" answers). */
  readonly permissions: SessionPermissions;
  /** Saves the session now (done after every turn and on close). */
  save(): Promise<void>;
  /**
   * Closes this session and opens it again on the same conversation with its config loaded again
   * (`/trust on`: the project's settings apply without restarting); the host works with the
   * returned session from then on. Fails while a turn runs. See `reopenSession`.
   */
  reopen(): Promise<OpenedSession>;
  /** Stops subagents, teammates and MCP servers, saves, and releases the session. Safe to call twice. */
  close(): Promise<void>;
}

const runtimes = new WeakMap<OpenedSession, AgentRuntime>();

/**
 * The runtime under a session, for core's own tests and benchmarks only (not exported from the
 * package): hosts use the session's verbs and its event stream.
 */
export function runtimeOf(session: OpenedSession): AgentRuntime {
  const runtime = runtimes.get(session);
  if (!runtime) throw new Error("not a session opened by openSession");
  return runtime;
}

/** What `openSession` built, for the handle. */
export interface SessionParts {
  record: SessionRecord;
  loaded: LoadedConfig;
  runtime: AgentRuntime;
  modes: SessionModes;
  mcp: McpSession;
  store: SessionStore;
  journal: SessionJournal | undefined;
  release: () => Promise<void>;
  queue: string[];
  /** Where the person started (relative `@paths` resolve here after the project root). */
  cwd: string;
  subagentModels: Record<string, string>;
  ephemeral: boolean;
  resolveModel: (spec: string) => Promise<ResolvedModel>;
  current: () => ResolvedModel;
  warn: (message: string) => void;
  env: Environment;
  /** The sandbox level the session's agents run under. */
  sandboxLevel: string;
  /** Opens this session again with its config reloaded (`OpenedSession.reopen`). */
  reopen: () => Promise<OpenedSession>;
}

/** The handle a host works with; see `OpenedSession`. */
export function sessionHandle(parts: SessionParts): OpenedSession {
  const { record, runtime, store, journal } = parts;
  // Earlier runs' usage (saved); what this process spends is summed by the runtime's ledger.
  runtime.usage.setEarlier({
    usage: record.meta.usage ?? emptyUsage(),
    costUsd: record.meta.costUsd ?? 0,
    embeddingTokens: record.meta.embeddingTokens ?? 0,
  });
  let closed = false;
  let lastInput: TurnInput | undefined;
  const openedAt = Date.now();
  let running = false;
  const rewinds = new ThreadRewind(runtime.context.thread, runtime.tracker);
  const usage = (): SessionUsage => runtime.usage.totals().session;
  const turnComplete = (result: TurnResult): AgentEventOf<"turn-complete"> => {
    const totals = runtime.usage.totals();
    const model = parts.current();
    const budget = runtime.budgets.report(LEAD_ID);
    return {
      type: "turn-complete",
      agent: runtime.context.agent,
      sessionId: record.meta.id,
      providerId: model.providerId,
      modelId: model.modelId,
      reason: result.reason,
      // A failed step's text is a fragment (a stream that broke off), never the answer.
      text: result.reason === "error" ? "" : result.text.trim(),
      steps: result.steps,
      sessionTotal: totals.session,
      sinceOpen: totals.sinceOpen,
      ...(budget ? { budget } : {}),
    };
  };
  const save = async (options: { unlessUnchanged?: boolean; evenIfEmpty?: boolean } = {}) => {
    const total = usage();
    record.meta.usage = total.usage;
    record.meta.costUsd = total.costUsd;
    if (total.embeddingTokens > 0) record.meta.embeddingTokens = total.embeddingTokens;
    const agents = runtime.manager?.snapshot();
    if (agents && Object.keys(agents).length > 0) record.agents = agents;
    await journal?.flush();
    if (!parts.ephemeral && (record.messages.length > 0 || options.evenIfEmpty))
      await store.save(record, options.unlessUnchanged ? { unlessUnchanged: true } : {});
  };
  const catalogueOptions = {
    root: parts.loaded.projectRoot,
    config: parts.loaded.config,
    env: parts.env,
    mcp: parts.mcp,
    warn: parts.warn,
  };
  const agents = sessionAgents({
    leadId: runtime.context.agent.agentId,
    manager: runtime.manager,
    teams: runtime.teams,
  });
  const current = () => {
    const model = parts.current();
    return { providerId: model.providerId, modelId: model.modelId };
  };
  // Each phase is a turn of this session (usage, journal, save), so the closure reads `session` later.
  const autopilot = sessionAutopilot({
    projectRoot: parts.loaded.projectRoot,
    sessionId: record.meta.id,
    lead: runtime.context.agent,
    runTurn: (input, turnOptions) => session.runTurn(input, turnOptions),
  });
  const session: OpenedSession = {
    id: record.meta.id,
    record,
    config: parts.loaded.config,
    projectRoot: parts.loaded.projectRoot,
    loaded: parts.loaded,
    modes: parts.modes,
    agents,
    workflows: sessionWorkflows({
      record,
      loaded: parts.loaded,
      runtime,
      modes: parts.modes,
      agents,
      todos: runtime.todos,
      model: current,
      usage,
      lastInput: () => lastInput,
      openedAt,
      contextPercent: () => session.contextUsage().percentUsed,
    }),
    changes: runtime.tracker,
    todos: runtime.todos,
    mcp: parts.mcp,
    autopilot,
    get model() {
      return current();
    },
    async *runTurn(input, turnOptions = {}) {
      const signal = turnOptions.signal ?? new AbortController().signal;
      lastInput = input;
      const { input: turnInput, modes: prompt } = withoutModePrefixes(input);
      const planned = parts.modes.mode === "plan" || prompt.planMode;
      const restore = parts.modes.applyTurnModes(prompt);
      const began = rewinds.beginTurn();
      running = true;
      const turn = runtime.runTurn(turnInput, { signal });
      let result: TurnResult;
      const followed: AgentEvent[] = [];
      try {
        result = yield* turn;
        began(runtime.context.turnRequest);
        if (turnOptions.followTeam) {
          result = await followTeam(runtime, result, {
            waitMs: turnOptions.followTeam.waitMs,
            signal,
            emit: (event) => followed.push(event),
            ...(turnOptions.followTeam.timeoutHint
              ? { timeoutHint: turnOptions.followTeam.timeoutHint }
              : {}),
          });
        }
      } finally {
        running = false;
        restore();
        // The team's turns ran inside followTeam; their events are passed on in order.
        for (const event of followed) yield event;
      }
      if (planned && result.reason === "completed") {
        await parts.modes.recordPlan(result.text).catch((error: unknown) => {
          parts.warn(`could not save the plan: ${error instanceof Error ? error.message : String(error)}`);
        });
      }
      await save();
      yield turnComplete(result);
      return result;
    },
    queueMessage(text) {
      parts.queue.push(text);
      return parts.queue.length;
    },
    takeQueued: () => parts.queue.splice(0),
    subagentModels: () => ({ ...parts.subagentModels }),
    setSubagentModel(role, model) {
      if (model?.trim()) parts.subagentModels[role] = model.trim();
      else delete parts.subagentModels[role];
    },
    expandCommand: (prompt) => expandSlashCommand(prompt, catalogueOptions),
    commands: () => loadCommandCatalogue(catalogueOptions),
    async setModel(spec) {
      const next = await parts.resolveModel(spec);
      runtime.context.model = next.model;
      runtime.context.costOf = next.costOf;
      record.meta.provider = next.providerId;
      record.meta.model = next.modelId;
      return { providerId: next.providerId, modelId: next.modelId };
    },
    async compact(focus) {
      const result = await compactLead(runtime, {
        projectRoot: parts.loaded.projectRoot,
        sessionId: record.meta.id,
        instructions:
          [parts.loaded.config.agent.compact_instructions, focus].filter(Boolean).join("\n") || undefined,
      });
      await save();
      return result;
    },
    contextUsage: () =>
      contextUsage(runtime, {
        contextWindow: parts.current().contextWindow,
        threshold: parts.loaded.config.agent.auto_compact_threshold,
      }),
    ...sessionInput({ parts, runtime, rewinds, running: () => running, save }),
    warmUpIndex() {
      if (runtime.codeIndex && !runtime.codeIndex.started) runtime.codeIndex.start();
    },
    usage,
    usageTotals: () => runtime.usage.totals(),
    turnComplete,
    costReport: () => {
      const total = usage();
      const current = parts.current();
      return costReport({
        leadId: runtime.context.agent.agentId,
        leadModel: `${current.providerId}/${current.modelId}`,
        total: { usage: total.usage, costUsd: total.costUsd },
        embeddingCostUsd: runtime.codeIndex?.embeddingUsage().costUsd ?? 0,
        manager: runtime.manager,
        teammates: runtime.teams?.usage() ?? { usage: emptyUsage(), costUsd: 0 },
      });
    },
    save,
    async reopen() {
      if (running) throw new Error("A turn is running: the session reopens once it ends (or press Esc).");
      return parts.reopen();
    },
    agentChanges: (agentId) => worktreesOf(runtime).diff(agentId),
    async mergeAgentChanges(agentId) {
      const { record, outcome } = await worktreesOf(runtime).merge(agentId);
      if (!outcome.merged)
        return `${record.nickname}'s changes conflict with your tree in ${outcome.conflicts.join(", ")}: nothing was changed (branch ${record.branch} kept).`;
      return `Merged ${record.nickname}'s changes: ${outcome.files.join(", ") || "(no files)"} (uncommitted).`;
    },
    async discardAgentChanges(agentId) {
      const record = await worktreesOf(runtime).discard(agentId);
      return `Discarded ${record.nickname}'s changes (branch ${record.branch} removed).`;
    },
    waitingWorktrees: () => runtime.manager?.worktrees.list() ?? [],
    budget: () => runtime.budgets.report("lead"),
    hasTeamMail: () => leadHasTeamMail(runtime),
    answer: (id, reply) => runtime.interaction.answer(id, reply),
    dismissPending: (reason) => runtime.interaction.dismissAll(reason),
    permissions: sessionPermissions({
      loaded: parts.loaded,
      trustMode: runtime.trustMode,
      sandboxLevel: parts.sandboxLevel,
      rules: runtime.interaction.rules,
      forget: runtime.interaction.forget,
    }),
    async close() {
      if (closed) return;
      closed = true;
      try {
        // MCP servers stop while the agents close and the session is saved; after a turn's own
        // save, closing has mostly nothing new to write.
        await Promise.all([
          parts.mcp.close(),
          runtime
            .close()
            .then(() => runtime.tracker.flush())
            .then(() => save({ unlessUnchanged: true })),
        ]);
      } finally {
        await parts.release();
      }
    },
  };
  runtimes.set(session, runtime);
  return session;
}
