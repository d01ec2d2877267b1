import { resolve } from "node:path";
import {
  type Environment,
  getLogger,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  markStartup,
  resolveDirs,
} from "@nyzhi/config";
import { emptyUsage } from "@nyzhi/provider";
import type { BudgetLimits } from "../budgets/budget-types.js";
import { resumeChangeHistory } from "../changes/change-history.js";
import type { IndexProcessCommand } from "../code-index/index-process-opener.js";
import type { SandboxLevel } from "../engines/sandbox/sandbox-level.js";
import type { AgentEvent, AgentTag, NoticeSource } from "../events/agent-events.js";
import { type McpSession, startMcpSession } from "../mcp/mcp-session.js";
import { type AgentRuntime, createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { loadWorkspace } from "../runtime/load-workspace.js";
import { createModelResolver, type ResolvedModel } from "../runtime/model-resolver.js";
import { journalSteps } from "../saved-sessions/session-journal.js";
import { SessionStore } from "../saved-sessions/session-store.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { sweepLeftoverWorktrees } from "../worktrees/agent-worktree.js";
import { chooseDefaultProvider } from "./choose-default-provider.js";
import { type OpenedSession, sessionHandle } from "./session-handle.js";
import { SessionModes } from "./session-modes.js";
import { openSessionRecord, type SessionResume } from "./session-record.js";
import { reopenSession } from "./session-reopen.js";

const LEAD: AgentTag = { agentId: "lead", depth: 0 };

/**
 * What a host (the app, `nyz run`/`exec`, a library user) gives the session: where its events go.
 * Everything the session says is an `AgentEvent` — the turn's own are yielded by `runTurn`; the
 * rest (the session opened, warnings and MCP notices as `notice`s, hook results, queued messages
 * delivered, subagents and teammates working between turns, approvals and questions asked then)
 * come here. Approvals and questions are answered with `session.answer(id, …)`.
 */
export interface SessionHost {
  /** Every event of the session that no running `runTurn` yields. */
  onEvent?: (event: AgentEvent) => void;
  /**
   * The host answers `approval-requested` and `question` events (`session.answer`). Default false:
   * a call that needs approval is denied (as in `nyz exec`) and `ask_user` is not offered.
   */
  interactive?: boolean;
}

export interface OpenSessionOptions {
  /**
   * Where the user started: project root discovery starts here, and it is the agents' working
   * directory (commands run here, relative paths resolve here).
   */
  cwd: string;
  env: Environment;
  /** The loaded config; default: loaded here from `cwd` with `configOptions` (warnings are `notice` events). */
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
  /** This run's cap over config `agent.budget` (`--max-budget-usd` sets `usd`). */
  budget?: BudgetLimits | undefined;
  /**
   * Serve the session's code index from a child process started with this command (the app:
   * `nyz __index-process`); default in this process. See `CreateAgentRuntimeOptions.indexProcess`.
   */
  indexProcess?: IndexProcessCommand | undefined;
  /**
   * A headless run (`nyz exec`, `nyz run`): unless `index.auto_headless` is on, the code index is
   * used read-only (opened on the first search, never built or updated) and there is no
   * auto-context unless `autoContext` asks for it.
   */
  headless?: boolean | undefined;
  /** Auto-context for this session's turns, whatever `index.auto_context` says (`--auto-context`). */
  autoContext?: boolean | undefined;
  /** Start in plan mode (`nyz exec --plan`); default `agent.plan_mode`. */
  planMode?: boolean | undefined;
  /** Tools of the host's own (made with `defineTool`), offered to the lead beside the built-ins. */
  tools?: Tool[] | undefined;
  host?: SessionHost;
}

/**
 * Opens a session for a host: config, model, the session record (new or continued, locked),
 * per-step journal, workspace (rules, roles, skills, memory), MCP servers, the agent runtime with
 * its subagents and teams restored. `nyz run`/`exec` and the interactive app are thin hosts over it.
 */
export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const { env } = options;
  const host = options.host ?? {};
  // Until the runtime exists (its router then takes over): the host's sink.
  let emit = (event: AgentEvent) => host.onEvent?.(event);
  const notice = (message: string, source: NoticeSource, extra: { server?: string; kind?: string } = {}) =>
    emit({ type: "notice", agent: LEAD, message, source, level: "warning", ...extra });
  const warn = (message: string, source: NoticeSource = "workspace") => notice(message, source);
  const loaded = options.config ?? (await loadConfig({ ...options.configOptions, cwd: options.cwd, env }));
  if (!options.config) for (const warning of loaded.warnings) warn(warning.message, "config");
  const { config, projectRoot } = loaded;
  // No provider configured: the one whose credentials are present.
  await chooseDefaultProvider(loaded, {
    env,
    note: (message) => warn(message, "config"),
    modelSpec: options.model,
  });
  if (options.maxSteps !== undefined) config.agent.max_steps = options.maxSteps;
  // One object the child factory reads at each spawn, so `/subagent-config` changes the next child.
  const subagentModels: Record<string, string> = { ...options.subagentModels };
  const store = new SessionStore(resolveDirs(env).sessions);
  const resolveModel = createModelResolver({
    config,
    env,
    providerSource: loaded.origins["provider.default"]?.source,
  });
  let resolved: ResolvedModel = await resolveModel(options.model);
  markStartup("model resolved");
  const { record, release } = await openSessionRecord(store, options.resume, {
    provider: resolved.providerId,
    model: resolved.modelId,
    projectRoot,
  });
  let mcp: McpSession | undefined;
  let mcpStarting: Promise<McpSession> | undefined;
  let runtime: AgentRuntime | undefined;
  try {
    record.meta.provider = resolved.providerId;
    record.meta.model = resolved.modelId;
    emit({
      type: "session-opened",
      agent: LEAD,
      sessionId: record.meta.id,
      providerId: resolved.providerId,
      modelId: resolved.modelId,
      sessionTotal: {
        usage: record.meta.usage ?? emptyUsage(),
        costUsd: record.meta.costUsd ?? 0,
        embeddingTokens: record.meta.embeddingTokens ?? 0,
      },
    });
    // MCP servers (processes to spawn and initialize: the longest part when any is configured),
    // the journal and the workspace are read at once, so the first request waits for the slowest
    // of them, not their sum; a server whose tools an earlier session listed is not waited for at
    // all (it starts in the background, its kept tools offered meanwhile). Each finished step is
    // appended to the journal as it completes, so a killed run keeps it (`--continue`).
    mcpStarting = startMcpSession({
      config,
      projectRoot,
      projectTrusted: loaded.projectTrusted,
      // Servers whose tools an earlier session listed start in the background (decision 016).
      toolCacheDir: resolveDirs(env).cache,
      env,
      logger: getLogger(env),
      onNotice: (mcpNotice) => {
        if (mcpNotice.kind !== "tools-changed")
          notice(mcpNotice.message, "mcp", { server: mcpNotice.server, kind: mcpNotice.kind });
      },
    });
    const [journal, workspace] = await Promise.all([
      options.ephemeral ? undefined : store.openJournal(record),
      loadWorkspace({ root: projectRoot, env, config, origins: loaded.origins }),
      mcpStarting,
    ]);
    for (const warning of workspace.warnings) warn(warning);
    markStartup("workspace+journal+mcp");
    mcp = await mcpStarting;
    for (const warning of mcp.warnings) notice(warning, "mcp");
    const created: AgentRuntime = createAgentRuntime({
      mcp,
      config,
      model: resolved,
      resolveModel,
      // Commands run and relative paths resolve where the user started; the project root bounds
      // the sandbox and holds the project's files (config, rules, sessions, `.nyzhi/`).
      cwd: resolve(options.cwd),
      projectRoot,
      env,
      sessionId: record.meta.id,
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(workspace.rules ? { rules: workspace.rules } : {}),
      roles: workspace.roles,
      skills: workspace.skills,
      fragments: workspace.fragments,
      projectMemory: workspace.projectMemory,
      subagentModelOverrides: subagentModels,
      ...(options.teamName ? { team: { name: options.teamName } } : {}),
      ...(options.indexProcess ? { indexProcess: options.indexProcess } : {}),
      ...(options.tools ? { extraTools: options.tools } : {}),
      ...(options.budget ? { budget: options.budget } : {}),
      ...(options.headless && !config.index.auto_headless ? { indexUse: "read-only" as const } : {}),
      ...(options.autoContext !== undefined ? { autoContext: options.autoContext } : {}),
      thread: record.messages,
      host: {
        onBackgroundEvent: (event) => host.onEvent?.(event),
        interactive: host.interactive === true,
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
    if (journal) await resumeChangeHistory(created.tracker, store.changesPathOf(record.meta.id));
    markStartup("runtime created");
    // From here on, what the session says goes where the lead's events go: into the running turn.
    emit = created.emit;
    const queue: string[] = [];
    const takeTeamMail = created.context.takePendingMessages;
    created.context.takePendingMessages = async () => {
      const typed = queue.splice(0);
      if (typed.length > 0) emit({ type: "queued-delivered", agent: LEAD, texts: typed });
      return [
        ...typed.map((text) => ({ role: "user" as const, content: text })),
        ...((await takeTeamMail?.()) ?? []),
      ];
    };
    if (record.agents) created.manager?.restore(record.agents);
    if (created.manager) {
      // Worktrees earlier runs left: a crashed run's are removed, finished agents' changes stay listed.
      const dataDir = resolveDirs(env).data;
      const { removed, waiting } = await sweepLeftoverWorktrees(dataDir, projectRoot).catch(
        (error: unknown) => {
          getLogger(env).warn({ error }, "could not sweep agent worktrees");
          return { removed: [], waiting: [] };
        },
      );
      for (const gone of removed)
        notice(
          `Removed agent worktree ${gone.path} (branch ${gone.branch}) left by a run that ended while it worked.`,
          "worktrees",
        );
      if (waiting.length > 0) {
        created.manager.worktrees.adopt(waiting);
        notice(
          `Agent changes wait for a decision (merge_agent_changes / discard_agent_changes, or the agents panel): ${waiting
            .map((entry) => `${entry.branch} (${entry.diffStat})`)
            .join("; ")}`,
          "worktrees",
        );
      }
    }
    await created.lifecycle.sessionStart({ source: options.resume ? "resume" : "startup" });
    markStartup("sessionStart hooks");
    const modes = new SessionModes({
      context: created.context,
      projectRoot,
      sessionId: record.meta.id,
      setTrustMode: created.setTrustMode,
      trustMode: created.trustMode,
      modelInfo: () => resolved.info,
      startInPlan: options.planMode ?? config.agent.plan_mode,
    });
    const handle: OpenedSession = sessionHandle({
      reopen: () => reopenSession(handle, options, openSession),
      record,
      loaded,
      runtime: created,
      modes,
      mcp,
      store,
      journal,
      release,
      queue,
      cwd: resolve(options.cwd),
      subagentModels,
      ephemeral: options.ephemeral === true,
      resolveModel: async (spec) => {
        resolved = await resolveModel(spec);
        return resolved;
      },
      current: () => resolved,
      warn,
      env,
      sandboxLevel: options.sandbox ?? config.agent.sandbox,
    });
    return handle;
  } catch (error) {
    await runtime?.close();
    // Servers still starting when something else failed are stopped once they have started.
    await (mcp ?? (await mcpStarting?.catch(() => undefined)))?.close();
    await release();
    throw error;
  }
}
