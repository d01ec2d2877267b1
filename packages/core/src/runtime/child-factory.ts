import type { NyzhiConfig } from "@nyzhi/config";
import { exemptFromStreamLimit, type ModelMessage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { blockedInPlanMode } from "../agent-loop/plan-mode.js";
import {
  assembleSystemPrompt,
  environmentFragment,
  type PromptFragment,
  rulesFragment,
} from "../agent-loop/system-prompt.js";
import { buildBriefing } from "../briefing/build-briefing.js";
import { buildSharedContext } from "../briefing/build-shared-context.js";
import { forkTurns } from "../briefing/fork-turns.js";
import { latestWisdom } from "../briefing/latest-wisdom.js";
import type { BudgetLedger } from "../budgets/budget-ledger.js";
import type { ChangeTracker } from "../changes/change-tracker.js";
import { refreshContextEachTurn } from "../code-index/auto-context.js";
import type { SandboxSettings } from "../engines/sandbox/sandbox-settings.js";
import { TodoStore } from "../planning/todo-store.js";
import { applyRole } from "../roles/apply-role.js";
import { resolveRole } from "../roles/resolve-role.js";
import type { RoleCatalog } from "../roles/role-catalog.js";
import type { RoleDefinition } from "../roles/role-definition.js";
import { patternsPickTools, resolveToolRolePatterns } from "../roles/tool-role-patterns.js";
import { SKILLS_SERVICE, type Skill } from "../skills/skill-types.js";
import { skillsIndexFragment } from "../skills/skills-index-fragment.js";
import type { ChildFactory, ChildRequest } from "../subagents/agent-manager.js";
import { SubagentError } from "../subagents/subagent-error.js";
import { LIFECYCLE_TOOL_NAMES } from "../tools/agents/lifecycle-tools.js";
import { deferIfMany } from "../tools/deferred/defer-if-many.js";
import { registerWithDeferral, toolsInFullFor } from "../tools/deferred/tools-in-full.js";
import type { Tool } from "../tools/seam/define-tool.js";
import { matchesToolPattern, ToolRegistry } from "../tools/seam/tool-registry.js";
import type { PathGuard, ToolContext, ToolProgress, ToolServices } from "../tools/seam/tool-types.js";
import type { WorktreeRecord } from "../worktrees/worktree-records.js";
import type { ResolvedModel } from "./model-resolver.js";

/** What a parent agent shares with the children it spawns. */
export interface AgentEntry {
  context: AgentContext;
  todos: TodoStore;
  modelSpec: string;
  resolved: ResolvedModel | undefined;
}

export interface ChildFactoryOptions {
  config: NyzhiConfig;
  /** The working directory, told to each child (see `CreateAgentRuntimeOptions.cwd`). */
  cwd: string;
  /** The project root: told to each child, and where the briefing's wisdom is read. Default `cwd`. */
  projectRoot?: string;
  roles: RoleCatalog;
  /** Every tool a child could be given (before role fencing). */
  allTools: () => Tool[];
  /** Tools only children of `role` get (its own MCP servers), added before fencing. */
  extraToolsFor?: (role: RoleDefinition) => Promise<Tool[]>;
  tracker: ChangeTracker;
  /** Agents by id (the lead is `lead`); children are added here when built. */
  agents: Map<string, AgentEntry>;
  /** Builds a model for a spec; absent means children reuse their parent's model. */
  resolveModel?: ((spec: string) => Promise<ResolvedModel>) | undefined;
  /** Session overrides by role (`--subagent-model role=model`, `/subagent-config`). */
  sessionOverrides: Record<string, string>;
  rules?: string | undefined;
  projectMemory?: () => Promise<string | undefined>;
  /** The parent's skills; a child sees only those its role names (`skills`, `*` for all). */
  skills?: readonly Skill[];
  /** This turn's `<codebase_context>` fragment, for roles with `autoContext`; absent when auto-context is off. */
  autoContext?: (turn: { input: string; thread: readonly ModelMessage[] }) => Promise<PromptFragment>;
  /**
   * Opens a worktree for a child with `isolation: "worktree"` (from its parent's tree) and the
   * place its tools work in there; absent: such a spawn is refused.
   */
  openWorktree?: (request: { agentId: string; nickname: string; parentId: string }) => Promise<{
    record: WorktreeRecord;
    place: AgentPlace;
  }>;
  /** Where children's budgets are registered and checked; absent: no budgets. */
  budgets?: BudgetLedger;
  /** Builds a tool context for an agent (services, sandbox …), shared with the lead's setup. */
  toolContextFor: (
    agent: ToolContext["agent"],
    todos: TodoStore,
    registry: ToolRegistry,
    services?: ToolServices,
    place?: AgentPlace,
  ) => (callId: string, signal: AbortSignal, progress: (event: ToolProgress) => void) => ToolContext;
}

/** Where an agent's tools work: its directories, sandbox and change tracker (a worktree's own). */
export interface AgentPlace {
  cwd: string;
  projectRoot: string;
  guard: PathGuard;
  sandbox: SandboxSettings;
  tracker: ChangeTracker;
}

/** Tools that start agents: not offered to an agent at the maximum depth. */
const SPAWNING_TOOL_NAMES: readonly string[] = [...LIFECYCLE_TOOL_NAMES, "task"];

/**
 * Derives a child's context from its parent's: role applied (prompt, model, step cap, fenced
 * tools — by the tool-role mapping when the role lists none), the skills its role names, the
 * parent's briefing and wisdom appended (unless the request is isolated, as `task`'s are), the
 * same gate (so never more trust or a wider sandbox than the parent, and approvals reach the same
 * host tagged with the child), the same change tracker, its own thread and todo list.
 */
export function createChildFactory(options: ChildFactoryOptions): ChildFactory {
  const { config } = options;
  return {
    checkRole(roleName) {
      resolveRole(roleName, options.roles);
    },
    async createChild(request: ChildRequest) {
      const parent = options.agents.get(request.parentId);
      if (!parent) throw new Error(`parent agent ${request.parentId} is not known to this session`);
      const { role, unknown } = resolveRole(request.roleName, options.roles);
      // A child never gets a tool its parent lacks (the lead has every tool of the session); the
      // role's own MCP servers are the one addition.
      const parentTools = request.depth > 1 ? new Set(parent.context.tools.names()) : undefined;
      const available = [
        ...options.allTools().filter((tool) => !parentTools || parentTools.has(tool.name)),
        ...((await options.extraToolsFor?.(role)) ?? []),
      ];
      const toolRolePatterns = resolveToolRolePatterns(config);
      const applied = applyRole(role, {
        parentModel: parent.modelSpec,
        subagentModel: config.agent.agents.subagent_model,
        sessionOverrides: options.sessionOverrides,
        availableTools: available.map((tool) => ({ name: tool.name, mutates: tool.mutates })),
        toolRolePatterns,
        parentMaxSteps: parent.context.maxSteps,
      });
      const modelSpec = request.model?.trim() || applied.model;
      const resolved =
        modelSpec === parent.modelSpec || !options.resolveModel
          ? parent.resolved
          : await options.resolveModel(modelSpec);
      // The stream cap (`agent.max_concurrent_streams`) counts top-level agents only (seed 003):
      // children are bounded by their own limits, and must not queue behind their parent.
      const model = exemptFromStreamLimit(resolved?.model ?? parent.context.model);

      // A read-only role cannot delegate either: its children could write for it.
      const canSpawn = request.depth < config.agent.agents.max_depth && !role.readOnly;
      const allowed = new Set(applied.toolNames);
      // A child spawned while its parent plans is read-only for its whole life.
      const planMode = parent.context.planMode === true;
      const granted = available.filter(
        (tool) =>
          allowed.has(tool.name) &&
          (canSpawn || !SPAWNING_TOOL_NAMES.includes(tool.name)) &&
          !(planMode && tool.mutates),
      );

      // Its own worktree (from the spawn, else its role): its tools, sandbox and changes live there.
      const isolation = request.isolation ?? role.isolation;
      let opened: { record: WorktreeRecord; place: AgentPlace } | undefined;
      if (isolation === "worktree") {
        if (!options.openWorktree)
          throw new SubagentError(
            "worktree_unavailable",
            'isolation "worktree" is not available in this session',
          );
        opened = await options.openWorktree({
          agentId: request.agentId,
          nickname: request.nickname,
          parentId: request.parentId,
        });
      }
      const place = opened?.place;
      const skills = (options.skills ?? []).filter((skill) =>
        (role.skills ?? []).some((pattern) => matchesToolPattern(skill.name, pattern)),
      );
      const isMcp = (tool: Tool) => tool.name.startsWith("mcp__");
      // The tools the role's turns mostly use in full, the rest deferred (see tools-in-full.ts).
      const picksOwnTools =
        role.allowedTools !== undefined ||
        patternsPickTools(
          role.name,
          available.map((tool) => tool.name),
          toolRolePatterns,
        );
      const tools = new ToolRegistry();
      registerWithDeferral(
        tools,
        granted.filter((tool) => !isMcp(tool)),
        toolsInFullFor(
          { kind: "child", role: role.name, picksOwnTools },
          // The session's skills, not the role's: every child of a session offers `load_skill` alike.
          { hasSkills: (options.skills ?? []).length > 0, hasMcp: granted.some(isMcp) },
        ),
      );
      deferIfMany(tools, granted.filter(isMcp));
      const fragments: PromptFragment[] = [
        { kind: "persona", text: applied.systemPrompt },
        environmentFragment({
          cwd: place?.cwd ?? options.cwd,
          projectRoot: place?.projectRoot ?? options.projectRoot ?? options.cwd,
        }),
        rulesFragment(options.rules),
        skillsIndexFragment(skills),
        ...(request.isolated ? [] : await parentContextFragments(options, parent)),
      ];

      const tag = {
        agentId: request.agentId,
        depth: request.depth,
        role: applied.role,
        nickname: request.nickname,
      };
      const todos = new TodoStore();
      const thread =
        request.thread ??
        (request.forkTurns !== undefined && !request.isolated
          ? forkTurns(parent.context.thread, request.forkTurns)
          : []);
      const context: AgentContext = {
        agent: tag,
        model,
        system: assembleSystemPrompt(fragments),
        tools,
        thread,
        maxSteps: applied.maxSteps,
        gate: parent.context.gate,
        createToolContext: options.toolContextFor(
          { id: tag.agentId, depth: tag.depth, role: tag.role, nickname: tag.nickname },
          todos,
          tools,
          { [SKILLS_SERVICE]: () => skills },
          place,
        ),
        takePendingMessages: request.takePendingMessages,
        explainMissingTool: (name) =>
          (planMode && available.some((tool) => tool.name === name && tool.mutates)
            ? blockedInPlanMode(name)
            : undefined) ??
          explainMissingTool(name, {
            role: applied.role,
            depth: request.depth,
            maxDepth: config.agent.agents.max_depth,
            readOnly: role.readOnly,
            inSession: available.some((tool) => tool.name === name),
          }),
      };
      if (planMode) context.planMode = true;
      const autoContext = options.autoContext;
      if (role.autoContext && autoContext) refreshContextEachTurn(context, autoContext);
      if (parent.context.hooks) context.hooks = parent.context.hooks;
      if (parent.context.maxTokens !== undefined) context.maxTokens = parent.context.maxTokens;
      if (parent.context.stepRetry) context.stepRetry = parent.context.stepRetry;
      if (parent.context.shapeToolResult) context.shapeToolResult = parent.context.shapeToolResult;
      // The host records children's steps too (the session journal keeps their threads).
      if (parent.context.afterStep) context.afterStep = parent.context.afterStep;
      // Its steps count in its parent's (and every ancestor's) subtree total, summed in core.
      if (parent.context.usageLedger) {
        context.usageLedger = parent.context.usageLedger;
        context.usageLedger.setParent(request.agentId, request.parentId);
      }
      const costOf = resolved?.costOf ?? parent.context.costOf;
      if (costOf) context.costOf = costOf;
      // Its own budget (the spawn's, else its role's), clamped to what its parent's has left; an
      // enclosing subtree budget (the session's) binds it even without one.
      const budget = options.budgets?.register(
        request.agentId,
        request.parentId,
        request.budget ?? role.budget,
      );
      if (options.budgets) context.budget = options.budgets.hooksFor(request.agentId);
      options.agents.set(request.agentId, { context, todos, modelSpec, resolved });
      return {
        context,
        role: applied.role,
        unknownRole: unknown,
        model: resolved ? `${resolved.providerId}/${resolved.modelId}` : modelSpec,
        ...(budget ? { budget } : {}),
        ...(opened ? { worktree: opened.record } : {}),
      };
    },
  };
}

/**
 * Why a child lacks a tool, in words the model can act on: the depth limit, a read-only role that
 * cannot delegate, or its role's fence. A name the session has nowhere stays "unknown".
 */
export function explainMissingTool(
  name: string,
  child: { role: string; depth: number; maxDepth: number; readOnly: boolean; inSession: boolean },
): string | undefined {
  if (SPAWNING_TOOL_NAMES.includes(name)) {
    if (child.depth >= child.maxDepth)
      return `Agent depth limit (${child.maxDepth}) reached: \`${name}\` is not available at depth ${child.depth}; do this yourself.`;
    if (child.readOnly)
      return `\`${name}\` is not available to the ${child.role} role (a read-only role cannot delegate); do this yourself.`;
  }
  if (child.inSession) return `\`${name}\` is not available to the ${child.role} role.`;
  return undefined;
}

/** The briefing (parent's conversation, changes, todos, memory) and the newest wisdom notes. */
async function parentContextFragments(
  options: ChildFactoryOptions,
  parent: AgentEntry,
): Promise<PromptFragment[]> {
  const briefing = buildBriefing(
    buildSharedContext({
      thread: parent.context.thread,
      changedFiles: options.tracker.changedFiles(),
      todos: parent.todos.list(),
      projectRoot: options.projectRoot ?? options.cwd,
      projectMemory: await options.projectMemory?.(),
    }),
  );
  const wisdom = await latestWisdom(options.projectRoot ?? options.cwd);
  return [
    {
      kind: "briefing",
      text: briefing.trim() ? `# Context Briefing (from parent)\n${briefing.trim()}` : "",
    },
    {
      kind: "wisdom",
      text:
        wisdom && wisdom.trim().split("\n").length > 3
          ? `# Accumulated Wisdom (from prior work)\n${wisdom.trim()}`
          : "",
    },
  ];
}
