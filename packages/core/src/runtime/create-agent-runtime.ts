import { randomUUID } from "node:crypto";
import { type NyzhiConfig, resolveDirs } from "@nyzhi/config";
import { createStreamLimiter, findModel, type LanguageModel, withStreamLimit } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { DEFAULT_MAX_STEPS } from "../agent-loop/run-turn.js";
import { assembleSystemPrompt } from "../agent-loop/system-prompt.js";
import { BudgetLedger } from "../budgets/budget-ledger.js";
import { BUDGET_DIMENSIONS, type BudgetLimits, type BudgetSpec } from "../budgets/budget-types.js";
import { ChangeTracker } from "../changes/change-tracker.js";
import { refreshContextEachTurn } from "../code-index/auto-context.js";
import { CODE_INDEX_SERVICE } from "../code-index/code-index-service.js";
import { contextDirs } from "../compaction/context-dirs.js";
import { offloadLargeToolResult, offloadThresholdFor } from "../compaction/offload-tool-result.js";
import type { AgentTag } from "../events/agent-events.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { lifecycleHooks } from "../hooks/lifecycle-hooks.js";
import { toolCallHooks } from "../hooks/tool-call-hooks.js";
import { MCP_MANAGER_SERVICE } from "../mcp/read-mcp-resource-tool.js";
import { createApprovalBroker } from "../permissions/approval-broker.js";
import { createToolGate } from "../permissions/create-tool-gate.js";
import { TodoStore } from "../planning/todo-store.js";
import { RoleCatalog } from "../roles/role-catalog.js";
import type { AgentManager } from "../subagents/agent-manager.js";
import { TEAM_SERVICE } from "../teams/team-service.js";
import { ROLE_CATALOG_SERVICE } from "../tools/agents/agents-json-service.js";
import { UsageLedger } from "../usage/usage-ledger.js";
import type { AgentRuntime, CreateAgentRuntimeOptions } from "./agent-runtime-types.js";
import type { AgentEntry, AgentPlace } from "./child-factory.js";
import { EventRouter } from "./event-router.js";
import { hostQuestions } from "./host-questions.js";
import { compactBeforeRequests, leadFragments } from "./lead-context.js";
import { buildLeadTools } from "./lead-tools.js";
import { leadTurn } from "./lead-turn.js";
import type { ResolvedModel } from "./model-resolver.js";
import { buildAgents } from "./runtime-agents.js";
import { buildCodeIndex } from "./runtime-code-index.js";
import { buildSafety } from "./runtime-safety.js";
import { runtimeServices, toolContexts } from "./tool-contexts.js";
import { worktreePlaces } from "./worktree-places.js";

export type { AgentHost, AgentRuntime, CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

function isResolved(model: LanguageModel | ResolvedModel): model is ResolvedModel {
  return "model" in model && "costOf" in model;
}

/**
 * Builds the lead agent from config, piece by piece: its model under the session's stream limit,
 * the safety bounds (`buildSafety`), the code index (`buildCodeIndex`), hooks and budgets, the
 * tools (`buildLeadTools`, from the one tool catalogue), the context with its prompt and
 * compaction (`lead-context.ts`), the subagents and teams (`buildAgents`) and its turn (`leadTurn`).
 */
export function createAgentRuntime(options: CreateAgentRuntimeOptions): AgentRuntime {
  const { config, cwd } = options;
  const projectRoot = options.projectRoot ?? cwd;
  const env = options.env ?? process.env;
  const sessionId = options.sessionId ?? randomUUID();
  const { model, resolved, streamLimiter } = limitedModel(options);
  const dirs = resolveDirs(env);
  const safety = buildSafety(options, { projectRoot, env, dirs });
  const { guard, sandbox } = safety;
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
  const { codeIndex, stopIndexingChanges, turnContext } = buildCodeIndex(options, {
    projectRoot,
    env,
    lead: agent,
    route: router.route,
    usage: usageLedger,
    tracker,
    canRead: (path) =>
      guard.resolve(path, "read").then(
        () => true,
        () => false,
      ),
  });
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

  const sharedServices = runtimeServices(config, { env, sandbox, skills });
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
    guardFor: safety.guardFor,
  });
  const toolContextFor = toolContexts({ sharedServices, leadPlace, dirs, manager: () => manager });

  const roles = options.roles ?? new RoleCatalog({}, { config, projectRoot, globalConfigDir: dirs.config });
  sharedServices[ROLE_CATALOG_SERVICE] = roles;
  const tools = buildLeadTools(options, {
    roles,
    projectRoot,
    canAskUser: askUser !== undefined,
    hasSkills: skills.length > 0,
  });
  const leadTools = tools.registry;
  const contextWindow = resolved?.contextWindow ?? findModel(model.modelId, model.providerId)?.contextWindow;
  const { toolResults } = contextDirs(projectRoot);
  const context: AgentContext = {
    agent,
    model,
    system: assembleSystemPrompt(leadFragments(options, { projectRoot, tools: leadTools })),
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
    gate: createToolGate({
      policy: safety.policy,
      broker,
      guard,
      readOnlySandbox: safety.level === "read-only",
      hooks: lifecycle,
    }),
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
  if (turnContext) refreshContextEachTurn(context, turnContext);
  if (resolved) context.costOf = resolved.costOf;
  if (options.host?.afterStep) context.afterStep = options.host.afterStep;
  if (config.agent.max_tokens !== undefined) context.maxTokens = config.agent.max_tokens;
  if (contextWindow)
    compactBeforeRequests(context, { model, config, contextWindow, projectRoot, sessionId, lifecycle });
  agents.set(agent.agentId, {
    context,
    todos,
    modelSpec: resolved
      ? `${resolved.providerId}/${resolved.modelId}`
      : `${model.providerId}/${model.modelId}`,
    resolved,
  });

  const built = buildAgents(options, {
    lead: agent,
    cwd,
    projectRoot,
    roles,
    allTools: tools.allTools,
    mcp: options.mcp,
    tracker,
    agents,
    streamLimiter,
    skills,
    ...(turnContext ? { autoContext: turnContext } : {}),
    budgets,
    openWorktree: worktrees.open,
    toolContextFor,
    lifecycle,
    route: router.route,
    dirs,
  });
  manager = built.manager;
  const { teams } = built;
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
    trustMode: safety.trustMode,
    setTrustMode: safety.setTrustMode,
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
    runTurn: leadTurn({ context, lifecycle, tracker, codeIndex }),
    async close() {
      tools.stopMcpSync?.();
      stopIndexingChanges?.();
      await Promise.all([manager?.closeAll(), teams?.close()]);
      await codeIndex?.close();
    },
  };
}

/** The lead's model under the session's one stream limit (`agent.max_concurrent_streams`), shared by every subagent. */
function limitedModel(options: CreateAgentRuntimeOptions) {
  const given = isResolved(options.model) ? options.model : undefined;
  const streamLimiter =
    given?.streamLimiter ?? createStreamLimiter(options.config.agent.max_concurrent_streams);
  const model = given?.streamLimiter
    ? given.model
    : withStreamLimit(given ? given.model : (options.model as LanguageModel), streamLimiter);
  const resolved = given ? { ...given, model, streamLimiter } : undefined;
  return { model, resolved, streamLimiter };
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
