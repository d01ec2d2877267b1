import { resolve } from "node:path";
import {
  type ConfigWarning,
  type Environment,
  getLogger,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  resolveDirs,
} from "@nyzhi/config";
import type { BudgetLimits } from "../budgets/budget-types.js";
import { resumeChangeHistory } from "../changes/change-history.js";
import type { IndexProcessCommand } from "../code-index/index-process-opener.js";
import type { SandboxLevel } from "../engines/sandbox/sandbox-level.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { HookResult } from "../hooks/hook-types.js";
import type { McpNotice } from "../mcp/mcp-manager.js";
import { type McpSession, startMcpSession } from "../mcp/mcp-session.js";
import type { ApprovalCallback } from "../permissions/approval-broker.js";
import { type AgentRuntime, createAgentRuntime } from "../runtime/create-agent-runtime.js";
import { loadWorkspace } from "../runtime/load-workspace.js";
import { createModelResolver, type ResolvedModel } from "../runtime/model-resolver.js";
import { journalSteps } from "../saved-sessions/session-journal.js";
import { SessionStore } from "../saved-sessions/session-store.js";
import type { Tool } from "../tools/seam/define-tool.js";
import type { ToolServices } from "../tools/seam/tool-types.js";
import { sweepLeftoverWorktrees } from "../worktrees/agent-worktree.js";
import { chooseDefaultProvider } from "./choose-default-provider.js";
import { type OpenedSession, sessionHandle } from "./session-handle.js";
import { SessionModes } from "./session-modes.js";
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
  /** The session record is open (before the workspace and MCP servers load): its id and model. */
  onOpened?: (session: { id: string; providerId: string; modelId: string }) => void;
  /** Messages given to `queueMessage` that the lead just received (at a step boundary). */
  onQueuedDelivered?: (texts: string[]) => void;
}

export interface OpenSessionOptions {
  /**
   * Where the user started: project root discovery starts here, and it is the agents' working
   * directory (commands run here, relative paths resolve here).
   */
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
  const warn = (message: string, warning?: ConfigWarning) => host.onWarning?.(message, warning);
  const loaded = options.config ?? (await loadConfig({ ...options.configOptions, cwd: options.cwd, env }));
  if (!options.config) for (const warning of loaded.warnings) warn(warning.message, warning);
  const { config, projectRoot } = loaded;
  // No provider configured: the one whose credentials are present.
  await chooseDefaultProvider(loaded, { env, note: (message) => warn(message), modelSpec: options.model });
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
    host.onOpened?.({ id: record.meta.id, providerId: resolved.providerId, modelId: resolved.modelId });
    // MCP servers (processes to spawn and initialize: the longest part when any is configured),
    // the journal and the workspace are read at once, so the first request waits for the slowest
    // of them, not their sum. Each finished step is appended to the journal as it completes, so a
    // killed run keeps it (`--continue`).
    mcpStarting = startMcpSession({
      config,
      projectRoot,
      projectTrusted: loaded.projectTrusted,
      env,
      logger: getLogger(env),
      onNotice: (notice) => {
        if (notice.kind !== "tools-changed") host.onMcpNotice?.(notice.message, notice);
      },
    });
    const [journal, workspace] = await Promise.all([
      options.ephemeral ? undefined : store.openJournal(record),
      loadWorkspace({ root: projectRoot, env, config, origins: loaded.origins }),
      mcpStarting,
    ]);
    for (const warning of workspace.warnings) warn(warning);
    mcp = await mcpStarting;
    for (const warning of mcp.warnings) host.onMcpNotice?.(warning);
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
    if (journal) await resumeChangeHistory(created.tracker, store.changesPathOf(record.meta.id));
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
        warn(
          `Removed agent worktree ${gone.path} (branch ${gone.branch}) left by a run that ended while it worked.`,
        );
      if (waiting.length > 0) {
        created.manager.worktrees.adopt(waiting);
        warn(
          `Agent changes wait for a decision (merge_agent_changes / discard_agent_changes, or the agents panel): ${waiting
            .map((entry) => `${entry.branch} (${entry.diffStat})`)
            .join("; ")}`,
        );
      }
    }
    await created.lifecycle.sessionStart({ source: options.resume ? "resume" : "startup" });
    const modes = new SessionModes({
      context: created.context,
      projectRoot,
      sessionId: record.meta.id,
      setTrustMode: created.setTrustMode,
      trustMode: created.trustMode,
      modelInfo: () => resolved.info,
      startInPlan: options.planMode ?? config.agent.plan_mode,
    });
    return sessionHandle({
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
    });
  } catch (error) {
    await runtime?.close();
    // Servers still starting when something else failed are stopped once they have started.
    await (mcp ?? (await mcpStarting?.catch(() => undefined)))?.close();
    await release();
    throw error;
  }
}
