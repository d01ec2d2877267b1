import type {
  LanguageModel,
  ModelMessage,
  ProviderMetadata,
  SystemFragment,
  ThinkingOptions,
  Usage,
} from "@nyzhi/provider";
import type { AgentBudget } from "../budgets/budget-types.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { Tool } from "../tools/seam/define-tool.js";
import type { ToolRegistry } from "../tools/seam/tool-registry.js";
import type { PathUse, ToolContext, ToolProgress } from "../tools/seam/tool-types.js";
import type { UsageLedger } from "../usage/usage-ledger.js";

/** One tool call waiting for permission. */
export interface ToolGateRequest {
  callId: string;
  tool: Tool;
  input: unknown;
  /** Every path the call names, with how it touches it. */
  paths: PathUse[];
  preview: string | undefined;
  agent: AgentTag;
  /**
   * The turn's signal: an interrupted turn kills whatever the gate runs while it decides
   * (`permission_request` hooks) instead of waiting for it.
   */
  signal?: AbortSignal | undefined;
  /**
   * Called with the approval's id when the gate puts the call to the host (not when a hook or an
   * earlier "allow always" answered it): the loop emits `approval-requested` then.
   */
  announce?: ((id: string) => void) | undefined;
}

/** The permission layer's verdict before a call runs. */
export type ToolGateDecision = { action: "allow" } | { action: "deny"; reason: string } | { action: "ask" };

/**
 * Decides whether a tool call may run: deny rules and sandbox first, then trust mode, then the
 * host's approval. The permissions module implements it; the loop only follows its verdicts.
 */
export interface ToolGate {
  decide(request: ToolGateRequest): ToolGateDecision | Promise<ToolGateDecision>;
  /** Asks whoever can approve (the host, or a parent agent's host). No approver means denied. */
  approve(request: ToolGateRequest): Promise<{ approved: boolean; reason: string }>;
}

/** Lets everything through: for tests and trusted library use. */
export const allowAllGate: ToolGate = {
  decide: () => ({ action: "allow" }),
  approve: async () => ({ approved: true, reason: "allowed" }),
};

/**
 * Hooks around each tool call (the hooks module implements them; a block reason reaches the model).
 * `signal` is the calling agent's turn signal, passed per call because one set of hooks serves the
 * lead and every child: aborting it kills the hooks still running for that call.
 */
export interface ToolCallHooks {
  beforeToolCall?(call: {
    callId: string;
    name: string;
    input: unknown;
    signal?: AbortSignal | undefined;
  }): Promise<{ block?: string } | undefined>;
  afterToolCall?(call: {
    callId: string;
    name: string;
    input: unknown;
    output: string;
    isError: boolean;
    signal?: AbortSignal | undefined;
  }): Promise<void>;
}

/**
 * How a step whose stream broke off mid-message (a retryable failure after content arrived, which
 * the provider's own retry passes through) is tried again: the same request, with backoff.
 */
export interface StepRetryPolicy {
  /** Retries of one step; 0 lets the first such failure end the turn. */
  maxRetries: number;
  /** ms before the first retry; doubles per retry, with jitter. */
  initialBackoffMs: number;
  /** ms; the cap of one wait. */
  maxBackoffMs: number;
  /** Injected for tests. Must reject promptly when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Everything that makes one agent: the lead, a subagent, a `task` child and a teammate differ only
 * in how this is derived.
 */
export interface AgentContext {
  agent: AgentTag;
  model: LanguageModel;
  /** The system prompt, assembled from fragments (see `assembleSystemPrompt`). */
  system: SystemFragment[];
  tools: ToolRegistry;
  /** The conversation so far; the loop appends to it in place. */
  thread: ModelMessage[];
  /** Model requests per turn. Default 100. */
  maxSteps: number;
  /** Retrying a step cut off mid-message. Default: 3 retries, 1 s doubling up to 30 s. */
  stepRetry?: StepRetryPolicy;
  maxTokens?: number;
  temperature?: number;
  thinking?: ThinkingOptions;
  /**
   * Plan mode: the model is offered only tools that do not mutate, told it plans and does not act
   * (`PLAN_MODE_INSTRUCTIONS`), and a mutating call that slips through is refused.
   */
  planMode?: boolean;
  providerOptions?: ProviderMetadata;
  gate: ToolGate;
  hooks?: ToolCallHooks;
  /** Builds the context a tool call runs with. */
  createToolContext(
    callId: string,
    signal: AbortSignal,
    progress: (event: ToolProgress) => void,
  ): ToolContext;
  /** Cost in US dollars of a step's usage; absent means unknown (0). */
  costOf?: (usage: Usage) => number;
  /**
   * Where every step's usage is summed (the session's, shared by the lead, its subagents and
   * teammates); the loop creates one for a context without.
   */
  usageLedger?: UsageLedger;
  /**
   * Messages that arrived while the agent worked (`send_input`, teammate inboxes); drained at each
   * step boundary so the next model request contains them. May be async (an inbox file read).
   */
  takePendingMessages?: () => ModelMessage[] | Promise<ModelMessage[]>;
  /**
   * Lets events from elsewhere (this agent's subagents) join this agent's event stream while a
   * turn runs. Called at turn start with the turn's emitter; the returned function detaches.
   */
  attachEventSource?: (emit: (event: AgentEvent) => void) => () => void;
  /**
   * Runs before each model request, when every tool call has its result: may shrink
   * `thread` in place (compaction). Returns lines to show the user, and what any model call it
   * made cost (a summary), which the turn counts with its own usage.
   */
  beforeModelRequest?: (signal: AbortSignal) => Promise<{ notices: string[]; usage?: Usage | undefined }>;
  /**
   * Runs at the start of each turn, before the user's message enters the thread (which holds the
   * conversation so far): may replace `system` with this turn's model-visible context (the
   * runtime's auto-context). Must not take long; a rejection is logged by the loop and ignored.
   */
  beforeTurn?: (turn: {
    input: string;
    thread: readonly ModelMessage[];
    signal: AbortSignal;
  }) => Promise<void>;
  /**
   * The user message that started the current turn (set by the loop): compaction keeps it verbatim
   * even after other user messages (teammate mail, follow-ups) arrived during the turn.
   */
  turnRequest?: ModelMessage;
  /**
   * Why a tool this agent lacks is not offered (its role fences it, the depth limit), when the
   * session knows one: the model then reads the reason instead of "Unknown tool".
   */
  explainMissingTool?: (name: string) => string | undefined;
  /** Rewrites a tool's output before it enters the thread (offloading large results to a file). */
  shapeToolResult?: (output: string, call: { name: string; callId: string }) => Promise<string>;
  /**
   * Runs after each step, when the thread holds the step's assistant message and all its tool
   * results, before the next model request: a host persists the step here (the session journal),
   * so a killed run keeps every finished step. Awaited; a rejection becomes a non-fatal `error`.
   */
  afterStep?: (step: CompletedStep) => Promise<void>;
  /**
   * The agent's budget: checked before each model request (so a run out budget stops the agent
   * after its current tool calls, with reason `budget`), its notes added to the next request.
   */
  budget?: AgentBudget;
}

/** A step whose assistant message and every tool result are in the thread (see `afterStep`). */
export interface CompletedStep {
  agent: AgentTag;
  step: number;
  /** The agent's whole thread, ending with this step; the loop appends to it after the hook. */
  thread: readonly ModelMessage[];
  /** What this step's model requests (and a compaction summary before them) reported. */
  usage: Usage;
  /** `usage` in US dollars; 0 when the price is unknown. */
  costUsd: number;
}
