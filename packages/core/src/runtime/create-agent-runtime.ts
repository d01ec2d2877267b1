import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { type NyzhiConfig, resolveDirs, type TrustMode } from "@nyzhi/config";
import {
  createStreamLimiter,
  findModel,
  type LanguageModel,
  type ModelMessage,
  withStreamLimit,
} from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { delegationGuidanceFragment } from "../agent-loop/delegation-guidance.js";
import { leadPersonaFragment } from "../agent-loop/lead-persona.js";
import { DEFAULT_MAX_STEPS, runTurn, type TurnResult } from "../agent-loop/run-turn.js";
import {
  assembleSystemPrompt,
  customInstructionsFragment,
  environmentFragment,
  type PromptFragment,
  rulesFragment,
} from "../agent-loop/system-prompt.js";
import { BudgetLedger } from "../budgets/budget-ledger.js";
import { BUDGET_DIMENSIONS, type BudgetLimits, type BudgetSpec } from "../budgets/budget-types.js";
import { ChangeTracker } from "../changes/change-tracker.js";
import { autoContextFragment, refreshContextEachTurn } from "../code-index/auto-context.js";
import { CODE_INDEX_SERVICE, CodeIndexService } from "../code-index/code-index-service.js";
import { indexProcessOpener } from "../code-index/index-process-opener.js";
import { compactIfNeeded, describeCompactionStep } from "../compaction/compact-if-needed.js";
import { contextDirs } from "../compaction/context-dirs.js";
import { estimateTextTokens } from "../compaction/estimate-tokens.js";
import { offloadLargeToolResult, offloadThresholdFor } from "../compaction/offload-tool-result.js";
import { shellSandboxPaths } from "../engines/sandbox/blocked-dotfiles.js";
import { controlScriptsOf } from "../engines/sandbox/control-files.js";
import { createPathGuard } from "../engines/sandbox/path-guard.js";
import type { SandboxLevel } from "../engines/sandbox/sandbox-level.js";
import { SANDBOX_SERVICE, type SandboxSettings } from "../engines/sandbox/sandbox-settings.js";
import { WEB_ACCESS_SERVICE, type WebAccessSettings } from "../engines/web/web-access.js";
import type { AgentTag } from "../events/agent-events.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { lifecycleHooks } from "../hooks/lifecycle-hooks.js";
import { toolCallHooks } from "../hooks/tool-call-hooks.js";
import { mcpFragment } from "../mcp/mcp-fragment.js";
import type { McpSession } from "../mcp/mcp-session.js";
import { MCP_MANAGER_SERVICE, readMcpResourceTool } from "../mcp/read-mcp-resource-tool.js";
import { syncMcpTools } from "../mcp/sync-mcp-tools.js";
import { writeMcpIndex } from "../mcp/write-mcp-index.js";
import { createApprovalBroker } from "../permissions/approval-broker.js";
import { createToolGate } from "../permissions/create-tool-gate.js";
import { createPermissionPolicy } from "../permissions/permission-policy.js";
import { TODO_STORE_SERVICE, TodoStore } from "../planning/todo-store.js";
import { RoleCatalog } from "../roles/role-catalog.js";
import { SKILLS_SERVICE } from "../skills/skill-types.js";
import { AgentManager, type ChildFactory } from "../subagents/agent-manager.js";
import { TEAM_SERVICE, TeamService } from "../teams/team-service.js";
import { discardAgentChangesTool, mergeAgentChangesTool } from "../tools/agents/agent-changes-tools.js";
import { ROLE_CATALOG_SERVICE } from "../tools/agents/agents-json-service.js";
import { defineAgentTool } from "../tools/agents/define-agent-tool.js";
import { AGENT_MANAGER_SERVICE, lifecycleTools } from "../tools/agents/lifecycle-tools.js";
import { listAgentsTool } from "../tools/agents/list-agents-tool.js";
import { removeAgentTool } from "../tools/agents/remove-agent-tool.js";
import { createTaskTool } from "../tools/agents/task-tool.js";
import { getArchitectureKnowledgeTool } from "../tools/architecture/get-architecture-knowledge-tool.js";
import { builtinTools } from "../tools/catalogue/builtin-tools.js";
import { deferIfMany } from "../tools/deferred/defer-if-many.js";
import { deferredToolsFragment } from "../tools/deferred/deferred-tools-fragment.js";
import { TOOL_REGISTRY_SERVICE } from "../tools/deferred/tool-search-tool.js";
import { registerWithDeferral, toolsInFullFor } from "../tools/deferred/tools-in-full.js";
import { ToolRegistry } from "../tools/seam/tool-registry.js";
import type { ToolContext, ToolServices } from "../tools/seam/tool-types.js";
import {
  heldCredentialValues,
  SHELL_ENVIRONMENT_SERVICE,
  type ShellEnvironmentSettings,
} from "../tools/shell/command-environment.js";
import { leadTeamTools, memberTeamTools } from "../tools/teams/team-tools.js";
import { UsageLedger } from "../usage/usage-ledger.js";
import type { AgentRuntime, CreateAgentRuntimeOptions } from "./agent-runtime-types.js";
import { type AgentEntry, type AgentPlace, createChildFactory } from "./child-factory.js";
import { EventRouter } from "./event-router.js";
import { hostQuestions } from "./host-questions.js";
import { limitResolvedModels, type ResolvedModel } from "./model-resolver.js";
import { worktreePlaces } from "./worktree-places.js";

export type { AgentHost, AgentRuntime, CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

function isResolved(model: LanguageModel | ResolvedModel): model is ResolvedModel {
  return "model" in model && "costOf" in model;
}

/** Builds the lead agent from config: model, tools, sandbox, permissions, hooks, subagents, prompt. */
export function createAgentRuntime(options: CreateAgentRuntimeOptions): AgentRuntime {
  const { config, cwd } = options;
  const projectRoot = options.projectRoot ?? cwd;
  const env = options.env ?? process.env;
  const sessionId = options.sessionId ?? randomUUID();
  const given = isResolved(options.model) ? options.model : undefined;
  // One stream limit (`agent.max_concurrent_streams`) for the lead and every subagent.
  const streamLimiter = given?.streamLimiter ?? createStreamLimiter(config.agent.max_concurrent_streams);
  const model = given?.streamLimiter
    ? given.model
    : withStreamLimit(given ? given.model : (options.model as LanguageModel), streamLimiter);
  const resolved = given ? { ...given, model, streamLimiter } : undefined;
  const level = options.sandbox ?? (config.agent.sandbox as SandboxLevel);
  const roots = [projectRoot];
  const trust = config.agent.trust;
  const dirs = resolveDirs(env);
  const sandboxPaths = shellSandboxPaths(config.shell.sandbox, {
    home: env.HOME || homedir(),
    projectRoot,
    authFile: dirs.auth,
  });
  const guard = createPathGuard({
    level,
    roots,
    cwd,
    denyPaths: trust.deny_paths,
    configDir: dirs.config,
    ...sandboxPaths,
  });
  const controlFiles = [
    join(dirs.config, "config.toml"),
    ...controlScriptsOf({
      hookCommands: config.agent.hooks.map((hook) => hook.command),
      programs: (options.mcp?.servers ?? []).flatMap((spec) =>
        spec.transport === "stdio" ? [[spec.command, ...spec.args]] : [],
      ),
      projectRoot,
    }),
  ];
  // Shift+Tab's "auto-accept edits" raises the configured mode to autoedit while it is on.
  let trustOverride: TrustMode | undefined;
  const policy = createPermissionPolicy({ trust, roots, cwd, controlFiles, modeNow: () => trustOverride });
  const tracker = new ChangeTracker();
  const todos = new TodoStore();
  const agent: AgentTag = options.agent ?? { agentId: "lead", depth: 0 };
  const router = new EventRouter(options.host?.onBackgroundEvent);
  const interactive = options.host?.interactive === true;
  const broker = createApprovalBroker({
    callback: options.host?.approve,
    interactive,
    onRule: (rule) =>
      router.route({
        type: "notice",
        agent,
        source: "permissions",
        message: `Allowed for this session: ${rule.description}`,
      }),
  });
  const questions = hostQuestions(router.route, agent);
  // Every agent's steps (lead, subagents, teammates) and the embedder are summed here, once.
  const usageLedger = new UsageLedger();
  const readOnlyIndex = options.indexUse === "read-only";
  const codeIndex =
    options.codeIndex === false
      ? undefined
      : (options.codeIndex ??
        (config.index.enabled
          ? new CodeIndexService({
              root: projectRoot,
              env,
              config,
              readOnly: readOnlyIndex,
              ...(options.indexProcess
                ? { open: indexProcessOpener(options.indexProcess, { root: projectRoot, env, config }) }
                : {}),
              onActivity: (activity) =>
                router.route({
                  type: "index-progress",
                  agent,
                  ...activity,
                  sessionTotal: usageLedger.totals().session,
                }),
            })
          : undefined));
  if (codeIndex) usageLedger.setEmbedding(() => codeIndex.embeddingUsage());
  const stopIndexingChanges = codeIndex
    ? tracker.onChange((path) => codeIndex.filesChanged([path]))
    : undefined;
  const sandbox: SandboxSettings = {
    level,
    roots,
    allowNetwork: (config.shell.sandbox.allow_network ?? []).length > 0,
    denyPaths: trust.deny_paths,
    controlFiles,
    ...sandboxPaths,
  };
  const shellEnvironment: ShellEnvironmentSettings = {
    passthrough: config.shell.env_passthrough,
    set: config.shell.env,
    startupCommands: config.shell.startup_commands,
    secretValues: heldCredentialValues(config, env),
  };
  const hookRunner = new HookRunner({
    hooks: config.agent.hooks,
    cwd: projectRoot,
    toolCwd: cwd,
    env,
    sessionId,
    onResult: (result) =>
      router.route({
        type: "hook-result",
        agent,
        event: result.event,
        status: result.status,
        summary: result.summary,
      }),
  });
  const lifecycle = lifecycleHooks(hookRunner, { sessionId });
  const skills = options.skills ?? [];
  const agents = new Map<string, AgentEntry>();
  let manager: AgentManager | undefined;
  const tagOf = (agentId: string): AgentTag => {
    if (agentId === agent.agentId) return agent;
    const info = manager?.info(agentId);
    return info
      ? { agentId, depth: info.depth, role: info.role, nickname: info.nickname }
      : { agentId, depth: 1 };
  };
  const budgets = new BudgetLedger({
    onCrossing: (kind, crossing) =>
      router.route({
        type: kind === "warning" ? "budget-warning" : "budget-exhausted",
        agent: tagOf(crossing.ownerId),
        dimension: crossing.dimension,
        budget: crossing.report,
      }),
  });
  // The session's cap is the lead's budget over its whole subtree.
  budgets.register(agent.agentId, undefined, sessionBudget(config, options.budget));
  let childFactory: ChildFactory | undefined;

  const sharedServices: ToolServices = {
    [SANDBOX_SERVICE]: sandbox,
    [SHELL_ENVIRONMENT_SERVICE]: shellEnvironment,
    [SKILLS_SERVICE]: () => skills,
    [WEB_ACCESS_SERVICE]: {
      allowPrivate: config.web?.allow_private === true,
      allowHosts: config.web?.allow_hosts ?? [],
    } satisfies WebAccessSettings,
  };
  const askUser = options.host?.askUser ?? (interactive ? questions.ask : undefined);
  if (askUser) sharedServices.askUser = askUser;
  if (options.mcp) sharedServices[MCP_MANAGER_SERVICE] = options.mcp.manager;
  if (codeIndex) sharedServices[CODE_INDEX_SERVICE] = codeIndex;
  const leadPlace: AgentPlace = { cwd, projectRoot, guard, sandbox, tracker };
  const worktrees = worktreePlaces({
    lead: leadPlace,
    dataDir: dirs.data,
    sessionId,
    sandbox,
    guardFor: (root, placeCwd) =>
      createPathGuard({
        level,
        roots: [root],
        cwd: placeCwd,
        denyPaths: trust.deny_paths,
        configDir: dirs.config,
        ...sandboxPaths,
      }),
  });
  const toolContextFor =
    (
      who: ToolContext["agent"],
      agentTodos: TodoStore,
      registry: ToolRegistry,
      own: ToolServices = {},
      place: AgentPlace = leadPlace,
    ) =>
    (callId: string, signal: AbortSignal, progress: ToolContext["progress"]): ToolContext => ({
      cwd: place.cwd,
      projectRoot: place.projectRoot,
      callId,
      signal,
      paths: place.guard,
      changes: place.tracker,
      dirs,
      agent: who,
      progress,
      services: {
        ...sharedServices,
        [SANDBOX_SERVICE]: place.sandbox,
        [TODO_STORE_SERVICE]: agentTodos,
        [AGENT_MANAGER_SERVICE]: manager,
        [TOOL_REGISTRY_SERVICE]: registry,
        ...own,
      },
    });

  const baseTools = [...(options.tools ?? builtinTools()), ...(options.extraTools ?? [])];
  const roles = options.roles ?? new RoleCatalog({}, { config, projectRoot, globalConfigDir: dirs.config });
  sharedServices[ROLE_CATALOG_SERVICE] = roles;
  const subagentsEnabled = config.agent.agents.enabled;
  const agentTools = subagentsEnabled
    ? [
        ...lifecycleTools(() => roles.enabled()),
        createTaskTool(roles),
        defineAgentTool,
        removeAgentTool,
        listAgentsTool,
        mergeAgentChangesTool,
        discardAgentChangesTool,
        getArchitectureKnowledgeTool,
      ]
    : [];
  const mcp = options.mcp;
  // `read_mcp_resource` only with MCP servers configured: without any it can do nothing.
  const hasMcp = mcp !== undefined && mcp.servers.length > 0;
  const mcpTools = () => (mcp ? [...(hasMcp ? [readMcpResourceTool] : []), ...mcp.manager.tools()] : []);
  const allTools = () => [...baseTools, ...agentTools, ...mcpTools()];
  // Team tools: in full for a session started in a team (`--team-name`), else deferred with the rest.
  const teamTools =
    subagentsEnabled || options.team
      ? options.team?.isLead === false
        ? memberTeamTools()
        : leadTeamTools()
      : [];

  // The tools most turns use are offered in full; the rest are deferred behind `tool_search`.
  const leadTools = new ToolRegistry(options.team ? teamTools : []);
  registerWithDeferral(
    leadTools,
    [
      ...baseTools,
      ...agentTools,
      ...(options.team ? [] : teamTools),
      ...(hasMcp ? [readMcpResourceTool] : []),
    ],
    toolsInFullFor(
      { kind: "lead", canAskUser: askUser !== undefined },
      { hasSkills: skills.length > 0, hasMcp },
    ),
  );
  if (options.deferredTools?.length) deferIfMany(leadTools, options.deferredTools);
  let stopMcpSync: (() => void) | undefined;
  if (mcp) {
    const { deferred } = deferIfMany(leadTools, mcp.manager.tools());
    if (deferred) void writeMcpIndex(projectRoot, mcp.manager.tools());
    stopMcpSync = mcp.manager.onToolsChanged(() =>
      syncMcpTools(leadTools, mcp.manager.tools(), { deferred }),
    );
  }
  const fragments: PromptFragment[] = [
    leadPersonaFragment(),
    environmentFragment({ cwd, projectRoot }),
    rulesFragment(options.rules),
    customInstructionsFragment(config.agent.custom_instructions),
    ...(subagentsEnabled ? [delegationGuidanceFragment()] : []),
    deferredToolsFragment(leadTools),
    mcpFragment(mcp?.manager.statuses() ?? []),
    ...(options.fragments ?? []),
  ];
  const system = assembleSystemPrompt(fragments);
  const contextWindow = resolved?.contextWindow ?? findModel(model.modelId, model.providerId)?.contextWindow;
  const { toolResults } = contextDirs(projectRoot);
  const context: AgentContext = {
    agent,
    model,
    system,
    tools: leadTools,
    thread: options.thread ?? [],
    maxSteps: config.agent.max_steps ?? DEFAULT_MAX_STEPS,
    stepRetry: {
      maxRetries: config.agent.retry.max_retries,
      initialBackoffMs: config.agent.retry.initial_backoff_ms,
      maxBackoffMs: config.agent.retry.max_backoff_ms,
    },
    // The gate consults the permission_request / notification hooks before the host, so a hook can
    // answer approvals headless too; tool hooks get each call's turn signal from the loop.
    gate: createToolGate({ policy, broker, guard, readOnlySandbox: level === "read-only", hooks: lifecycle }),
    hooks: toolCallHooks(hookRunner, { sessionId }),
    createToolContext: toolContextFor({ id: agent.agentId, depth: agent.depth }, todos, leadTools),
    budget: budgets.hooksFor(agent.agentId),
    usageLedger,
    attachEventSource: router.attach,
    shapeToolResult: async (output, call) =>
      (
        await offloadLargeToolResult(output, {
          dir: toolResults,
          toolName: call.name,
          callId: call.callId,
          thresholdChars: offloadThresholdFor(call.name),
        })
      ).output,
  };
  const canRead = (path: string) =>
    guard.resolve(path, "read").then(
      () => true,
      () => false,
    );
  // Read-only (headless) sessions add auto-context only when asked, and then wait for the index
  // to open: nothing opened it before the first turn.
  const autoContext = options.autoContext ?? (readOnlyIndex ? false : config.index.auto_context);
  const turnContext =
    codeIndex && autoContext
      ? autoContextFor(codeIndex, config, {
          canRead,
          readyMs: readOnlyIndex
            ? Math.max(config.index.auto_context_wait_ms, READ_ONLY_AUTO_CONTEXT_WAIT_MS)
            : config.index.auto_context_wait_ms,
        })
      : undefined;
  if (turnContext) refreshContextEachTurn(context, turnContext);
  if (resolved) context.costOf = resolved.costOf;
  if (options.host?.afterStep) context.afterStep = options.host.afterStep;
  if (config.agent.max_tokens !== undefined) context.maxTokens = config.agent.max_tokens;
  if (contextWindow) {
    // The tool definitions' size, for the compaction threshold: measured again only when the set of
    // offered tools changes (serialising them every step cost ~0.5 ms); a description that grows
    // meanwhile (a new agent role) is an estimate's rounding.
    let toolTokens: { tools: ToolRegistry; key: string; tokens: number } | undefined;
    const toolDefinitionTokens = () => {
      const tools = context.tools;
      const key = `${tools.names().length}:${tools.deferredCount()}`;
      if (toolTokens?.tools !== tools || toolTokens.key !== key) {
        toolTokens = { tools, key, tokens: estimateTextTokens(JSON.stringify(tools.definitions())) };
      }
      return toolTokens.tokens;
    };
    context.beforeModelRequest = async (signal) => {
      const result = await compactIfNeeded({
        model,
        system: context.system,
        thread: context.thread,
        contextWindow,
        threshold: config.agent.auto_compact_threshold ?? 0.85,
        projectRoot,
        sessionId,
        instructions: config.agent.compact_instructions,
        signal,
        fixedTokens: toolDefinitionTokens(),
        request: context.turnRequest,
      });
      if (result.steps.length === 0) return { notices: [], usage: result.usage };
      await lifecycle.compactContext({ trigger: "auto", estimated_tokens: result.before }, { signal });
      context.thread.splice(0, context.thread.length, ...result.thread);
      return { notices: result.steps.map(describeCompactionStep), usage: result.usage };
    };
  }
  agents.set(agent.agentId, {
    context,
    todos,
    modelSpec: resolved
      ? `${resolved.providerId}/${resolved.modelId}`
      : `${model.providerId}/${model.modelId}`,
    resolved,
  });

  if (subagentsEnabled) {
    childFactory = createChildFactory({
      config,
      cwd,
      projectRoot,
      roles,
      allTools,
      ...(mcp
        ? { extraToolsFor: (role: Parameters<McpSession["toolsForRole"]>[0]) => mcp.toolsForRole(role) }
        : {}),
      tracker,
      agents,
      resolveModel: options.resolveModel && limitResolvedModels(options.resolveModel, streamLimiter),
      skills,
      sessionOverrides: options.subagentModelOverrides ?? {},
      rules: options.rules,
      ...(options.projectMemory ? { projectMemory: options.projectMemory } : {}),
      ...(turnContext ? { autoContext: turnContext } : {}),
      budgets,
      openWorktree: worktrees.open,
      toolContextFor,
    });
    manager = new AgentManager({
      maxThreads: config.agent.agents.max_threads,
      maxTasks: config.agent.agents.max_tasks,
      maxRunning: config.agent.agents.max_running,
      maxQueued: config.agent.agents.max_queued,
      maxDepth: config.agent.agents.max_depth,
      emit: router.route,
      factory: childFactory,
      budgets,
      dataDir: dirs.data,
      onForget: (agentId) => agents.delete(agentId),
      onStart: (info) =>
        void lifecycle.subagentStart({
          agent_id: info.id,
          nickname: info.nickname,
          role: info.role,
          depth: info.depth,
        }),
      onEnd: (info) =>
        void lifecycle.subagentEnd({
          agent_id: info.id,
          nickname: info.nickname,
          role: info.role,
          depth: info.depth,
          status: info.status,
          ...(info.result !== undefined ? { result: info.result } : {}),
        }),
    });
  }

  const teams =
    subagentsEnabled || options.team
      ? new TeamService({
          dirs: { teams: dirs.teams, tasks: dirs.tasks },
          lead: agent,
          team: options.team,
          lifecycle,
          memberTools: memberTeamTools,
          emit: router.route,
          ...(childFactory ? { buildTeammate: teammateBuilder(childFactory, agent) } : {}),
        })
      : undefined;
  if (teams) {
    sharedServices[TEAM_SERVICE] = teams;
    const earlier = context.takePendingMessages;
    context.takePendingMessages = async () => [
      ...((await earlier?.()) ?? []),
      ...(await teams.takeMessagesFor(agent.agentId)),
    ];
  }

  return {
    context,
    tracker,
    todos,
    manager,
    teams,
    codeIndex,
    lifecycle,
    sessionId,
    trustMode: () => trustOverride ?? trust.mode,
    setTrustMode(mode) {
      trustOverride = mode;
    },
    budgets,
    usage: usageLedger,
    interaction: {
      answer(id, reply) {
        if (typeof reply === "object" && "text" in reply) return questions.answer(id, reply.text);
        return broker.answer(id, reply);
      },
      dismissAll(reason) {
        broker.denyAll(reason);
        questions.dismissAll("");
      },
      rules: () => broker.rules(),
      forget: (id) => broker.forget(id),
    },
    emit: router.route,
    async *runTurn(input, turnOptions = {}) {
      // The index is first needed by a turn's auto-context and search: an open session that never
      // runs a turn never loads it (nor starts the app's index child).
      codeIndex?.start();
      const turnId = randomUUID();
      const prompt =
        typeof input === "string"
          ? input
          : input.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const gate = await lifecycle.userPromptSubmit({ prompt }, { signal: turnOptions.signal });
      // Interrupted while the prompt hooks ran (the abort kills them): the turn ends before the
      // thread or the model sees the prompt, whatever the killed hooks would have answered.
      if (turnOptions.signal?.aborted) return turnThatNeverRan("aborted");
      if (gate.block !== undefined) {
        const message = `The prompt was blocked by a user_prompt_submit hook: ${gate.block}`;
        yield { type: "error", agent, message, code: "hook_blocked", fatal: true };
        return turnThatNeverRan("error");
      }
      tracker.checkpoint(turnId);
      const result = yield* runTurn(context, input, { ...turnOptions, turnId });
      // Without the turn's signal: it is already aborted after an interrupted turn, and after_turn
      // hooks should still see that turn end.
      await lifecycle.afterTurn({ turn_id: turnId, reason: result.reason, steps: result.steps });
      return result;
    },
    async close() {
      stopMcpSync?.();
      stopIndexingChanges?.();
      await Promise.all([manager?.closeAll(), teams?.close()]);
      await codeIndex?.close();
    },
  };
}

/**
/**
 * ms a turn of a read-only (headless) session asked for auto-context (`--auto-context`) waits for
 * the index to open: it opens on that first lookup (its child process starts, LanceDB loads).
 */
const READ_ONLY_AUTO_CONTEXT_WAIT_MS = 10_000;

/**
 * A turn's `<codebase_context>` fragment from the session's index, within `index.auto_context_*`,
 * holding only files `read` could open (`canRead`: the session's path guard).
 */
function autoContextFor(
  codeIndex: CodeIndexService,
  config: NyzhiConfig,
  options: { canRead: (absolutePath: string) => Promise<boolean>; readyMs: number },
) {
  const { canRead } = options;
  return (turn: { input: string; thread: readonly ModelMessage[] }) =>
    autoContextFragment(codeIndex, {
      canRead,
      query: turn.input,
      thread: turn.thread,
      budgetTokens: config.index.auto_context_tokens,
      maxChunks: config.index.auto_context_chunks,
      readyMs: options.readyMs,
    });
}

/** The session's cap: config `agent.budget`, each key replaced by the host's (`--max-budget-usd`). */
function sessionBudget(config: NyzhiConfig, given: BudgetLimits | undefined): BudgetSpec {
  const spec: BudgetSpec = { scope: "subtree" };
  for (const dimension of BUDGET_DIMENSIONS) {
    const value = given?.[dimension] ?? config.agent.budget[dimension];
    if (value !== undefined) spec[dimension] = value;
  }
  return spec;
}

/** The result of a turn stopped before its loop started (blocked or interrupted prompt hooks). */
function turnThatNeverRan(reason: TurnResult["reason"]): TurnResult {
  return {
    reason,
    steps: 0,
    text: "",
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
  };
}

/** Builds teammates with the subagent child factory (role, briefing, model, fenced tools). */
function teammateBuilder(factory: ChildFactory, lead: AgentTag) {
  return async (request: {
    agentId: string;
    name: string;
    roleName: string | undefined;
    model: string | undefined;
  }) => {
    const built = await factory.createChild({
      agentId: request.agentId,
      nickname: request.name,
      depth: lead.depth + 1,
      parentId: lead.agentId,
      roleName: request.roleName,
      model: request.model,
      forkTurns: undefined,
      takePendingMessages: () => [],
    });
    return { context: built.context, role: built.role, model: built.model };
  };
}
