import { randomUUID } from "node:crypto";
import { type Environment, type NyzhiConfig, resolveDirs } from "@nyzhi/config";
import type { LanguageModel, ModelMessage } from "@nyzhi/provider";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { leadPersonaFragment } from "../agent-loop/lead-persona.js";
import { DEFAULT_MAX_STEPS, runTurn, type TurnInput, type TurnResult } from "../agent-loop/run-turn.js";
import {
  assembleSystemPrompt,
  customInstructionsFragment,
  environmentFragment,
  type PromptFragment,
  rulesFragment,
} from "../agent-loop/system-prompt.js";
import { ChangeTracker } from "../context/change-tracker.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import { type ApprovalCallback, createApprovalBroker } from "../permissions/approval-broker.js";
import { createToolGate } from "../permissions/create-tool-gate.js";
import { createPermissionPolicy } from "../permissions/permission-policy.js";
import { createPathGuard } from "../sandbox/path-guard.js";
import type { SandboxLevel } from "../sandbox/sandbox-level.js";
import { SANDBOX_SERVICE, type SandboxSettings } from "../sandbox/sandbox-settings.js";
import { builtinTools } from "../tools/builtin-tools.js";
import type { Tool } from "../tools/define-tool.js";
import { TODO_STORE_SERVICE, TodoStore } from "../tools/session/todo-store.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { ToolContext, ToolServices } from "../tools/tool-types.js";

/** What a host (TUI, headless CLI, library user) supplies to the runtime. */
export interface AgentHost {
  /** Answers approval prompts. Absent: nobody can approve, so calls that need it are denied. */
  approve?: ApprovalCallback;
  /** Answers `ask_user`. */
  askUser?: ToolServices["askUser"];
}

export interface CreateAgentRuntimeOptions {
  config: NyzhiConfig;
  model: LanguageModel;
  /** The workspace root; relative paths and the sandbox are anchored here. */
  cwd: string;
  env?: Environment;
  host?: AgentHost;
  /** Default: config `agent.sandbox`. */
  sandbox?: SandboxLevel;
  /** The project rules text (from `loadRules`), shown to the model. */
  rules?: string;
  /** Tools in addition to the built-ins (MCP, agent tools …). */
  extraTools?: Tool[];
  /** Replaces the built-in tool set (tests, embedders). */
  tools?: Tool[];
  /** More model-visible context. */
  fragments?: PromptFragment[];
  /** The conversation to continue (a resumed session). */
  thread?: ModelMessage[];
  agent?: AgentTag;
}

/** A ready-to-run lead agent: its context, change tracker and todo list. */
export interface AgentRuntime {
  context: AgentContext;
  tracker: ChangeTracker;
  todos: TodoStore;
  /** Runs one user turn; a checkpoint is taken first so `tracker.undoLastTurn()` can revert it. */
  runTurn(input: TurnInput, options?: { signal?: AbortSignal }): AsyncGenerator<AgentEvent, TurnResult>;
}

/** Builds the lead agent from config: model, tools, sandbox, permissions, system prompt. */
export function createAgentRuntime(options: CreateAgentRuntimeOptions): AgentRuntime {
  const { config, cwd } = options;
  const env = options.env ?? process.env;
  const level = options.sandbox ?? (config.agent.sandbox as SandboxLevel);
  const roots = [cwd];
  const trust = config.agent.trust;
  const guard = createPathGuard({ level, roots, cwd, denyPaths: trust.deny_paths });
  const policy = createPermissionPolicy({ trust, roots, cwd });
  const broker = createApprovalBroker({
    callback: options.host?.approve,
    rememberApprovals: trust.remember_approvals,
  });
  const tracker = new ChangeTracker();
  const todos = new TodoStore();
  const sandbox: SandboxSettings = {
    level,
    roots,
    allowNetwork: (config.shell.sandbox.allow_network ?? []).length > 0,
  };
  const services: ToolServices = { [TODO_STORE_SERVICE]: todos, [SANDBOX_SERVICE]: sandbox };
  if (options.host?.askUser) services.askUser = options.host.askUser;
  const agent: AgentTag = options.agent ?? { agentId: "lead", depth: 0 };
  const dirs = resolveDirs(env);

  const tools = new ToolRegistry([...(options.tools ?? builtinTools()), ...(options.extraTools ?? [])]);
  const fragments: PromptFragment[] = [
    leadPersonaFragment(),
    environmentFragment({ cwd, projectRoot: cwd }),
    rulesFragment(options.rules),
    customInstructionsFragment(config.agent.custom_instructions),
    ...(options.fragments ?? []),
  ];
  const context: AgentContext = {
    agent,
    model: options.model,
    system: assembleSystemPrompt(fragments),
    tools,
    thread: options.thread ?? [],
    maxSteps: config.agent.max_steps ?? DEFAULT_MAX_STEPS,
    gate: createToolGate({ policy, broker, guard }),
    createToolContext: (callId, signal, progress): ToolContext => ({
      cwd,
      callId,
      signal,
      paths: guard,
      changes: tracker,
      dirs,
      agent: { id: agent.agentId, depth: agent.depth, ...(agent.role ? { role: agent.role } : {}) },
      progress,
      services,
    }),
  };
  if (config.agent.max_tokens !== undefined) context.maxTokens = config.agent.max_tokens;

  return {
    context,
    tracker,
    todos,
    runTurn(input, turnOptions = {}) {
      const turnId = randomUUID();
      tracker.checkpoint(turnId);
      return runTurn(context, input, { ...turnOptions, turnId });
    },
  };
}
