import {
  type ConfigWarning,
  type Environment,
  getLogger,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  type NyzhiConfig,
  resolveDirs,
} from "@nyzhi/config";
import { addUsage, emptyUsage, type Usage } from "@nyzhi/provider";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { HookResult } from "../hooks/hook-types.js";
import type { McpNotice } from "../mcp/mcp-manager.js";
import { type McpSession, startMcpSession } from "../mcp/mcp-session.js";
import type { ApprovalCallback } from "../permissions/approval-broker.js";
import { type AgentRuntime, createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { followTeam } from "../runtime/follow-team.js";
import { loadWorkspace } from "../runtime/load-workspace.js";
import { createModelResolver, type ResolvedModel } from "../runtime/model-resolver.js";
import type { SandboxLevel } from "../sandbox/sandbox-level.js";
import { journalSteps, type SessionJournal } from "../sessions/session-journal.js";
import { SessionStore } from "../sessions/session-store.js";
import type { SessionRecord } from "../sessions/session-types.js";
import type { ToolServices } from "../tools/tool-types.js";
import { chooseDefaultProvider } from "./choose-default-provider.js";
import { expandSlashCommand } from "./expand-slash-command.js";
import { openSessionRecord, type SessionResume } from "./session-record.js";

const LEAD: AgentTag = { agentId: "lead", depth: 0 };

/** What a host (the app, `nyz run`/`exec`, a library user) gives the session and is told by it. */
export interface SessionHost {
  /** Every event of the session: the turn's own (also yielded by `runTurn`) are not sent here; background ones are. */
  onBackgroundEvent?: (event: AgentEvent) => void;
  /** Answers approvals of the lead and every subagent and teammate (tagged with the asking agent). */
  approve?: ApprovalCallback;
  /** Answers `ask_user`. */
  askUser?: ToolServices["askUser"];
  /** Each hook's result as it completes. */
  onHookResult?: (result: HookResult) => void;
  /** Config, workspace and command warnings, one line each. */
  onWarning?: (message: string, warning?: ConfigWarning) => void;
  /** MCP servers that failed, timed out or crashed (the session goes on without them). */
  onMcpNotice?: (message: string, notice?: McpNotice) => void;
  /** Retries of model requests (rate limits, overload), before the wait. */
  onRetry?: (event: Extract<AgentEvent, { type: "retry" }>) => void;
  /** The session record is open (before the workspace and MCP servers load): its id and model. */
  onOpened?: (session: { id: string; providerId: string; modelId: string }) => void;
  /** Messages given to `queueMessage` that the lead just received (at a step boundary). */
  onQueuedDelivered?: (texts: string[]) => void;
}

export interface OpenSessionOptions {
  /** Where the user started: project root discovery starts here. */
  cwd: string;
  env: Environment;
  /** The loaded config; default: loaded here from `cwd` with `configOptions` (warnings go to `onWarning`). */
  config?: LoadedConfig;
  configOptions?: Omit<LoadConfigOptions, "cwd" | "env">;
  /** `--model`: a model id, `provider/model` or a tier alias. */
  model?: string | undefined;
  sandbox?: SandboxLevel | undefined;
  maxSteps?: number | undefined;
  /** Continue a saved session instead of starting one. */
  resume?: SessionResume | undefined;
  /** Nothing is saved (no journal, no session file). */
  ephemeral?: boolean | undefined;
  /** Lead (or join) this team from the start (`--team-name`). */
  teamName?: string | undefined;
  /** Per-role model overrides for this session (`--subagent-model`, `/subagent-config`). */
  subagentModels?: Record<string, string>;
  host?: SessionHost;
}

/** Tokens and cost. */
export interface SessionUsage {
  usage: Usage;
  costUsd: number;
}

/** One open session: the work around each turn that every host needs, done once, here. */
export interface OpenedSession {
  readonly id: string;
  readonly record: SessionRecord;
  readonly config: NyzhiConfig;
  readonly projectRoot: string;
  readonly loaded: LoadedConfig;
  readonly runtime: AgentRuntime;
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
  /** `/name args` expanded to its command's prompt; other text unchanged. */
  expandCommand(prompt: string): Promise<string>;
  /** The lead's next requests use this model (`/model`). */
  setModel(spec: string): Promise<{ providerId: string; modelId: string }>;
  /** The session's tokens and cost: earlier runs, the lead, every subagent and teammate. */
  usage(): SessionUsage;
  /** Saves the session now (done after every turn and on close). */
  save(): Promise<void>;
  /** Stops subagents, teammates and MCP servers, saves, and releases the session. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens a session for a host: config, model, the session record (new or continued, locked),
 * per-step journal, workspace (rules, roles, skills, memory), MCP servers, the agent runtime with
 * its subagents and teams restored. `nyz run`/`exec` and the interactive app are thin hosts over it.
 */
export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const { env } = options;
  const host = options.host ?? {};
  const warn = (message: string, warning?: ConfigWarning) => host.onWarning?.(message, warning);
  const loaded = options.config ?? (await loadConfig({ ...options.configOptions, cwd: options.cwd, env }));
  if (!options.config) for (const warning of loaded.warnings) warn(warning.message, warning);
  const { config, projectRoot } = loaded;
  // No provider configured: the one whose credentials are present.
  await chooseDefaultProvider(loaded, { env, note: (message) => warn(message), modelSpec: options.model });
  if (options.maxSteps !== undefined) config.agent.max_steps = options.maxSteps;
  const store = new SessionStore(resolveDirs(env).sessions);
  const resolveModel = createModelResolver({
    config,
    env,
    providerSource: loaded.origins["provider.default"]?.source,
    onRetry: (retry) =>
      host.onRetry?.({
        type: "retry",
        agent: LEAD,
        attempt: retry.attempt,
        maxAttempts: retry.maxRetries,
        waitMs: retry.waitMs,
        reason: retry.error.message,
      }),
  });
  let resolved: ResolvedModel = await resolveModel(options.model);
  const { record, release } = await openSessionRecord(store, options.resume, {
    provider: resolved.providerId,
    model: resolved.modelId,
    projectRoot,
  });
  let mcp: McpSession | undefined;
  let runtime: AgentRuntime | undefined;
  try {
    record.meta.provider = resolved.providerId;
    record.meta.model = resolved.modelId;
    host.onOpened?.({ id: record.meta.id, providerId: resolved.providerId, modelId: resolved.modelId });
    // Each finished step is appended as it completes, so a killed run keeps it (`--continue`).
    const journal: SessionJournal | undefined = options.ephemeral
      ? undefined
      : await store.openJournal(record);
    const workspace = await loadWorkspace({ root: projectRoot, env, config, origins: loaded.origins });
    for (const warning of workspace.warnings) warn(warning);
    mcp = await startMcpSession({
      config,
      projectRoot,
      projectTrusted: loaded.projectTrusted,
      env,
      logger: getLogger(env),
      onNotice: (notice) => {
        if (notice.kind !== "tools-changed") host.onMcpNotice?.(notice.message, notice);
      },
    });
    for (const warning of mcp.warnings) host.onMcpNotice?.(warning);
    const created: AgentRuntime = createAgentRuntime({
      mcp,
      config,
      model: resolved,
      resolveModel,
      cwd: projectRoot,
      env,
      sessionId: record.meta.id,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(workspace.rules ? { rules: workspace.rules } : {}),
      roles: workspace.roles,
      skills: workspace.skills,
      fragments: workspace.fragments,
      projectMemory: workspace.projectMemory,
      subagentModelOverrides: options.subagentModels ?? {},
      ...(options.teamName ? { team: { name: options.teamName } } : {}),
      thread: record.messages,
      host: {
        ...(host.onBackgroundEvent ? { onBackgroundEvent: host.onBackgroundEvent } : {}),
        ...(host.approve ? { approve: host.approve } : {}),
        ...(host.askUser ? { askUser: host.askUser } : {}),
        ...(host.onHookResult ? { onHookResult: host.onHookResult } : {}),
        ...(journal
          ? {
              afterStep: journalSteps(journal, {
                leadId: LEAD.agentId,
                agents: () => created.manager?.snapshot(),
              }),
            }
          : {}),
      },
    });
    runtime = created;
    const queue: string[] = [];
    const takeTeamMail = created.context.takePendingMessages;
    created.context.takePendingMessages = async () => {
      const typed = queue.splice(0);
      if (typed.length > 0) host.onQueuedDelivered?.(typed);
      return [
        ...typed.map((text) => ({ role: "user" as const, content: text })),
        ...((await takeTeamMail?.()) ?? []),
      ];
    };
    if (record.agents) created.manager?.restore(record.agents);
    await created.lifecycle.sessionStart({ source: options.resume ? "resume" : "startup" });
    return sessionHandle({
      record,
      loaded,
      runtime: created,
      mcp,
      store,
      journal,
      release,
      queue,
      ephemeral: options.ephemeral === true,
      resolveModel: async (spec) => {
        resolved = await resolveModel(spec);
        return resolved;
      },
      current: () => resolved,
      warn,
    });
  } catch (error) {
    await runtime?.close();
    await mcp?.close();
    await release();
    throw error;
  }
}

function sessionHandle(parts: {
  record: SessionRecord;
  loaded: LoadedConfig;
  runtime: AgentRuntime;
  mcp: McpSession;
  store: SessionStore;
  journal: SessionJournal | undefined;
  release: () => Promise<void>;
  queue: string[];
  ephemeral: boolean;
  resolveModel: (spec: string) => Promise<ResolvedModel>;
  current: () => ResolvedModel;
  warn: (message: string) => void;
}): OpenedSession {
  const { record, runtime, store, journal } = parts;
  // Usage of earlier runs (saved) plus this process's; restored subagents carry their saved usage,
  // so only what they add from here on counts.
  const earlier: SessionUsage = {
    usage: record.meta.usage ?? emptyUsage(),
    costUsd: record.meta.costUsd ?? 0,
  };
  const restoredChildren = runtime.manager?.usageOf(LEAD.agentId) ?? { usage: emptyUsage(), costUsd: 0 };
  let lead: SessionUsage = { usage: emptyUsage(), costUsd: 0 };
  let closed = false;
  const usage = (): SessionUsage => {
    const children = runtime.manager?.usageOf(LEAD.agentId) ?? restoredChildren;
    const teammates = runtime.teams?.usage() ?? { usage: emptyUsage(), costUsd: 0 };
    const childUsage = subtractUsage(children.usage, restoredChildren.usage);
    return {
      usage: addUsage(addUsage(addUsage(earlier.usage, lead.usage), childUsage), teammates.usage),
      costUsd:
        earlier.costUsd + lead.costUsd + (children.costUsd - restoredChildren.costUsd) + teammates.costUsd,
    };
  };
  const save = async () => {
    const total = usage();
    record.meta.usage = total.usage;
    record.meta.costUsd = total.costUsd;
    const agents = runtime.manager?.snapshot();
    if (agents && Object.keys(agents).length > 0) record.agents = agents;
    await journal?.flush();
    if (!parts.ephemeral && record.messages.length > 0) await store.save(record);
  };
  return {
    id: record.meta.id,
    record,
    config: parts.loaded.config,
    projectRoot: parts.loaded.projectRoot,
    loaded: parts.loaded,
    runtime,
    get model() {
      const current = parts.current();
      return { providerId: current.providerId, modelId: current.modelId };
    },
    async *runTurn(input, turnOptions = {}) {
      const signal = turnOptions.signal ?? new AbortController().signal;
      const turn = runtime.runTurn(input, { signal });
      let result: TurnResult;
      const followed: AgentEvent[] = [];
      try {
        result = yield* turn;
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
        // The team's turns ran inside followTeam; their events are passed on in order.
        for (const event of followed) yield event;
      }
      lead = { usage: addUsage(lead.usage, result.usage), costUsd: lead.costUsd + result.costUsd };
      await save();
      return result;
    },
    queueMessage(text) {
      parts.queue.push(text);
      return parts.queue.length;
    },
    takeQueued: () => parts.queue.splice(0),
    expandCommand: (prompt) =>
      expandSlashCommand(prompt, {
        root: parts.loaded.projectRoot,
        config: parts.loaded.config,
        mcp: parts.mcp,
        warn: parts.warn,
      }),
    async setModel(spec) {
      const next = await parts.resolveModel(spec);
      runtime.context.model = next.model;
      runtime.context.costOf = next.costOf;
      record.meta.provider = next.providerId;
      record.meta.model = next.modelId;
      return { providerId: next.providerId, modelId: next.modelId };
    },
    usage,
    save,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await runtime.close();
        await parts.mcp.close();
        await save();
      } finally {
        await parts.release();
      }
    },
  };
}

function subtractUsage(total: Usage, part: Usage): Usage {
  return {
    inputTokens: total.inputTokens - part.inputTokens,
    outputTokens: total.outputTokens - part.outputTokens,
    cacheReadTokens: total.cacheReadTokens - part.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens - part.cacheWriteTokens,
  };
}
