import type { Environment, NyzhiConfig, TrustMode } from "@nyzhi/config";
import type { LanguageModel, ModelMessage } from "@nyzhi/provider";
import type { AgentContext, CompletedStep } from "../agent-loop/agent-context.js";
import type { TurnInput, TurnResult } from "../agent-loop/run-turn.js";
import type { PromptFragment } from "../agent-loop/system-prompt.js";
import type { BudgetLedger } from "../budgets/budget-ledger.js";
import type { BudgetLimits } from "../budgets/budget-types.js";
import type { ChangeTracker } from "../changes/change-tracker.js";
import type { CodeIndexService } from "../code-index/code-index-service.js";
import type { IndexProcessCommand } from "../code-index/index-process-opener.js";
import type { SandboxLevel } from "../engines/sandbox/sandbox-level.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";
import type { McpSession } from "../mcp/mcp-session.js";
import type { ApprovalAnswer, ApprovalCallback } from "../permissions/approval-broker.js";
import type { ApprovalRule } from "../permissions/approval-rules.js";
import type { TodoStore } from "../planning/todo-store.js";
import type { RoleCatalog } from "../roles/role-catalog.js";
import type { Skill } from "../skills/skill-types.js";
import type { AgentManager } from "../subagents/agent-manager.js";
import type { TeamService } from "../teams/team-service.js";
import type { Tool } from "../tools/seam/define-tool.js";
import type { ToolServices } from "../tools/seam/tool-types.js";
import type { UsageLedger } from "../usage/usage-ledger.js";
import type { ResolvedModel } from "./model-resolver.js";

// The types of `createAgentRuntime` (create-agent-runtime.ts): what a host passes in and gets back.

/** What a host (TUI, headless CLI, library user) supplies to the runtime. */
export interface AgentHost {
  /**
   * The host answers `approval-requested` and `question` events through `runtime.interaction`
   * (sessions: `session.answer`). Without it (and without `approve`), approvals are denied and
   * `ask_user` tells the model nobody can answer.
   */
  interactive?: boolean;
  /** In-process answers to approval prompts, instead of events (tests, embedders of the runtime). */
  approve?: ApprovalCallback;
  /** In-process answers to `ask_user`, instead of `question` events (tests, embedders). */
  askUser?: ToolServices["askUser"];
  /**
   * Events that arrive while no lead turn runs (subagents and teammates working in the
   * background, hook results, index progress, questions and approvals asked then).
   */
  onBackgroundEvent?: (event: AgentEvent) => void;
  /**
   * After each step of the lead or any subagent, before its next model request (the thread is
   * whole then): where the host persists the step (`SessionJournal.recordStep`).
   */
  afterStep?: (step: CompletedStep) => Promise<void>;
}

export interface CreateAgentRuntimeOptions {
  config: NyzhiConfig;
  /** The lead's model; `resolved` adds its ids, prices and context window. */
  model: LanguageModel | ResolvedModel;
  /**
   * The working directory (where the user started): commands run here, relative paths resolve
   * here, and the model is told it is its working directory.
   */
  cwd: string;
  /**
   * The project root (the nearest ancestor of `cwd` with `.git`, `.nyzhi` or `.claude`): the
   * sandbox's bounds, hooks' directory, `.nyzhi/` (tool-result offloads, notepads, agents.json,
   * MCP index), memory and roles. Default `cwd`. Writes stay bounded by it wherever `cwd` is.
   */
  projectRoot?: string;
  env?: Environment;
  host?: AgentHost;
  /** Default: config `agent.sandbox`. */
  sandbox?: SandboxLevel;
  /** The project rules text (from `loadRules`), shown to the model. */
  rules?: string;
  /** Tools in addition to the built-ins (MCP tools …). */
  extraTools?: Tool[];
  /** Replaces the built-in tool set (tests, embedders). */
  tools?: Tool[];
  /** Tools offered through `tool_search` when there are more than 15 of them (MCP tools). */
  deferredTools?: Tool[];
  /** More model-visible context (memory, skills index …). */
  fragments?: PromptFragment[];
  /** The conversation to continue (a resumed session). */
  thread?: ModelMessage[];
  agent?: AgentTag;
  sessionId?: string;
  /** Roles for subagents. Default: the built-ins plus `config` roles. */
  roles?: RoleCatalog;
  /** Builds models for subagents that ask for another model; absent: children use the lead's. */
  resolveModel?: (spec: string) => Promise<ResolvedModel>;
  /** Per-role model overrides for this session (`--subagent-model role=model`). */
  subagentModelOverrides?: Record<string, string>;
  skills?: readonly Skill[];
  /** Project memory excerpt for subagent briefings. */
  projectMemory?: () => Promise<string | undefined>;
  /**
   * The session's MCP servers (`startMcpSession`): their tools go to the lead (deferred above 15)
   * and, fenced by role, to subagents; the host stops them at the end of the session.
   */
  mcp?: McpSession;
  /**
   * The main agent's team (`nyz exec --team-name`): as lead it reads `memberName`'s inbox (default
   * the team's lead, `team-lead`) every step; as a member, its own. Without it the lead still gets
   * the team tools (with subagents on) and reads the inbox of every team it creates or spawns into.
   */
  team?: { name: string; memberName?: string; isLead?: boolean };
  /**
   * The project's code index for `semantic_search`, auto-context and live updates. Default: one
   * opened on the project root when `index.enabled` (loaded lazily); `false` for none.
   */
  codeIndex?: CodeIndexService | false;
  /**
   * Serve the default code index from a child process started with this command (the app:
   * `nyz __index-process`), so LanceDB and the chunker stay out of this process. Default: in
   * this process.
   */
  indexProcess?: IndexProcessCommand;
  /** The session's cap, over config `agent.budget` (`--max-budget-usd` sets `usd`). */
  budget?: BudgetLimits;
  /**
   * How the session uses the default code index. `live` (default; the app): warmed at start, built
   * in the background when missing (`index.auto`), kept current with the agents' edits and a file
   * watcher. `read-only` (headless runs without `index.auto_headless`): an index that exists is
   * opened on the first search or auto-context lookup and never written; none is built.
   */
  indexUse?: "live" | "read-only";
  /**
   * Auto-context for the lead's turns (and roles that opt in); default `index.auto_context`. With
   * `indexUse: "read-only"` the default is off, and on, a turn waits for the index to open.
   */
  autoContext?: boolean;
}

/** A ready-to-run lead agent and everything around it. */
export interface AgentRuntime {
  context: AgentContext;
  tracker: ChangeTracker;
  todos: TodoStore;
  /** Absent when `agent.agents.enabled` is false. */
  manager: AgentManager | undefined;
  /** Teams: identities, local teammates, the lead's inbox. Absent without subagents or `team`. */
  teams: TeamService | undefined;
  /** The session's code index; absent with `index.enabled = false`. */
  codeIndex: CodeIndexService | undefined;
  lifecycle: LifecycleHooks;
  sessionId: string;
  /** The trust mode approvals follow now (`agent.trust.mode` unless `setTrustMode` changed it). */
  trustMode(): TrustMode;
  /** Overrides the configured trust mode for this session; undefined goes back to the config's. */
  setTrustMode(mode: TrustMode | undefined): void;
  /** Every agent's spending against its budget; the lead's is the session's cap (`lead`). */
  budgets: BudgetLedger;
  /** The session's usage, summed once: every agent's steps and the embedder (`usage/usage-ledger.ts`). */
  usage: UsageLedger;
  /** Answers the host gives to the events that ask (approvals, questions) and the session's "allow always" rules. */
  interaction: RuntimeInteraction;
  /** Emits an event on the session's stream (the lead's running turn, else the background sink). */
  emit(event: AgentEvent): void;
  /** Runs one user turn: prompt hooks, a checkpoint for undo, the loop, after-turn hooks. */
  runTurn(input: TurnInput, options?: { signal?: AbortSignal }): AsyncGenerator<AgentEvent, TurnResult>;
  /** Stops every subagent and teammate (end of session); resolves when their loops have ended. */
  close(): Promise<void>;
}

/** What the host answers, and the "allow always" rules its answers made. */
export interface RuntimeInteraction {
  /** Answers the approval or question announced as `id`; false when nothing waits under it. */
  answer(id: string, reply: ApprovalAnswer | { text: string }): boolean;
  /** Denies every waiting approval with `reason` and dismisses every waiting question. */
  dismissAll(reason: string): void;
  /** This session's "allow always" answers. */
  rules(): readonly ApprovalRule[];
  /** Drops one "allow always" answer; false when there is none with that id. */
  forget(id: string): boolean;
}
