import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { getLogger } from "@nyzhi/config";
import type { ModelMessage, ModelRequest, Usage, UserContentPart } from "@nyzhi/provider";
import { addUsage, emptyUsage } from "@nyzhi/provider";
import { CompactionError } from "../compaction/compaction-error.js";
import type { AgentEvent, AgentEvents, TurnEndReason } from "../events/agent-events.js";
import { EventQueue } from "../events/event-queue.js";
import { UsageLedger } from "../usage/usage-ledger.js";
import type { AgentContext } from "./agent-context.js";
import { executeToolCalls } from "./execute-tool-calls.js";
import { PLAN_MODE_INSTRUCTIONS } from "./plan-mode.js";
import { DEFAULT_STEP_RETRY, streamStepWithRetry } from "./stream-step-with-retry.js";

type StepEndReason = AgentEvents["step-end"]["finishReason"];

/** What the user (or a parent agent) sends to start a turn. */
export type TurnInput = string | UserContentPart[];

export interface TurnResult {
  reason: TurnEndReason;
  steps: number;
  /** The final assistant text of the last step. */
  text: string;
  usage: Usage;
  costUsd: number;
}

/** The default step cap of a turn (model requests per user turn). */
export const DEFAULT_MAX_STEPS = 100;

/**
 * Runs one user turn: stream the model, run the tools it calls (read-only ones of a step in
 * parallel, mutating ones in order), append everything to `context.thread`, and repeat until the
 * model stops calling tools, `maxSteps` is reached, or `signal` aborts. Yields every event as it
 * happens and returns the turn's result. Whatever happens, every tool call in the thread gets
 * exactly one result. A step whose stream breaks off mid-message is sent again (`stepRetry`); its
 * partial message never enters the thread and none of its tool calls runs.
 */
export async function* runTurn(
  context: AgentContext,
  input: TurnInput,
  options: { signal?: AbortSignal; turnId?: string } = {},
): AsyncGenerator<AgentEvent, TurnResult> {
  const queue = new EventQueue<AgentEvent>();
  const push = (event: AgentEvent) => queue.push(event);
  const detach = context.attachEventSource?.(push);
  const running = driveTurn(context, input, options, push).finally(() => {
    detach?.();
    queue.close();
  });
  for await (const event of queue) yield event;
  return running;
}

async function driveTurn(
  context: AgentContext,
  input: TurnInput,
  options: { signal?: AbortSignal; turnId?: string },
  emit: (event: AgentEvent) => void,
): Promise<TurnResult> {
  const agent = context.agent;
  const turnId = options.turnId ?? randomUUID();
  const signal = options.signal ?? new AbortController().signal;
  // Every parallel tool call of a step listens for the abort; dozens at once are expected.
  setMaxListeners(256, signal);
  const maxSteps = context.maxSteps > 0 ? context.maxSteps : 100;
  let usage = emptyUsage();
  let costUsd = 0;
  let text = "";
  let step = 0;
  // What the current step spent, for `afterStep`.
  let stepUsage = emptyUsage();
  let stepCost = 0;

  const countUsage = (spent: Usage | undefined) => {
    if (!spent) return;
    const spentCost = context.costOf?.(spent) ?? 0;
    usage = addUsage(usage, spent);
    costUsd += spentCost;
    stepUsage = addUsage(stepUsage, spent);
    stepCost += spentCost;
    // Summed once, in the session's ledger (a loop run on its own gets one of its own).
    context.usageLedger ??= new UsageLedger();
    const totals = context.usageLedger.record(agent.agentId, spent, spentCost);
    emit({
      type: "usage",
      agent,
      step,
      usage: spent,
      costUsd: spentCost,
      agentTotal: context.usageLedger.agentTotal(agent.agentId),
      subtreeTotals: context.usageLedger.subtreeChain(agent.agentId),
      sessionTotal: totals.session,
    });
    context.budget?.record(spent, spentCost);
  };
  const end = (reason: TurnEndReason): TurnResult => {
    emit({ type: "turn-end", agent, turnId, reason, steps: step, usage, costUsd, text });
    return { reason, steps: step, text, usage, costUsd };
  };
  const endStep = async (finishReason: StepEndReason, toolCalls: number) => {
    emit({ type: "step-end", agent, step, finishReason, toolCalls });
    if (!context.afterStep) return;
    try {
      await context.afterStep({ agent, step, thread: context.thread, usage: stepUsage, costUsd: stepCost });
    } catch (error) {
      const message = `could not record step ${step}: ${error instanceof Error ? error.message : String(error)}`;
      emit({ type: "error", agent, message, code: "after_step_failed", fatal: false });
    }
  };

  emit({ type: "turn-start", agent, turnId, input: inputText(input) });
  if (context.beforeTurn) {
    try {
      await context.beforeTurn({ input: inputText(input), thread: context.thread, signal });
    } catch (error) {
      getLogger().warn({ error, agent: agent.agentId }, "beforeTurn failed; the turn goes on without it");
    }
  }
  const request: ModelMessage = { role: "user", content: input };
  context.turnRequest = request;
  context.thread.push(request);

  while (step < maxSteps) {
    // A budget that ran out stops the agent here: after its tool calls, before another request.
    const stop = context.budget?.stopReason();
    if (stop) {
      emit({ type: "notice", agent, message: `stopped: ${stop}` });
      return end("budget");
    }
    step += 1;
    stepUsage = emptyUsage();
    stepCost = 0;
    for (const message of (await context.takePendingMessages?.()) ?? []) context.thread.push(message);
    for (const note of context.budget?.takeNotices() ?? [])
      context.thread.push({ role: "user", content: note });
    emit({ type: "step-start", agent, step });
    if (context.beforeModelRequest) {
      try {
        const prepared = await context.beforeModelRequest(signal);
        countUsage(prepared.usage);
        for (const note of prepared.notices) emit({ type: "notice", agent, message: note });
      } catch (error) {
        // A summary request that was paid for and then failed still counts.
        if (error instanceof CompactionError) countUsage(error.usage);
        const message = error instanceof Error ? error.message : String(error);
        emit({
          type: "error",
          agent,
          message: `context compaction failed: ${message}`,
          code: "compaction_failed",
          fatal: false,
        });
      }
    }
    const outcome = await streamStepWithRetry(context.model, buildRequest(context), {
      signal,
      agent,
      emit,
      policy: context.stepRetry ?? DEFAULT_STEP_RETRY,
      onDiscardedUsage: countUsage,
    });
    countUsage(outcome.usage);
    text = outcome.text;

    if (signal.aborted) {
      // Keep what the user saw the model say, but not tool calls that will never get results.
      const said = outcome.content.filter((part) => part.type !== "tool-call");
      if (said.length > 0) context.thread.push({ role: "assistant", content: said });
      await endStep("aborted", 0);
      return end("aborted");
    }
    if (outcome.error) {
      // A message the stream broke off (retries spent) or the vendor failed is not kept: the next
      // turn starts from the last whole one.
      const error = outcome.error;
      await endStep("error", 0);
      emit({ type: "error", agent, message: error.message, code: error.code, fatal: true, error });
      return end("error");
    }

    if (outcome.content.length > 0) context.thread.push({ role: "assistant", content: outcome.content });
    if (outcome.toolCalls.length === 0) {
      await endStep(outcome.finishReason ?? "stop", 0);
      return end("completed");
    }

    const results = await executeToolCalls(context, outcome.toolCalls, { signal, emit });
    context.thread.push({ role: "tool", content: results });
    await endStep(outcome.finishReason ?? "tool-calls", results.length);
    if (signal.aborted) return end("aborted");
  }

  emit({
    type: "error",
    agent,
    message: `Reached maximum tool-calling steps (${maxSteps}). Raise agent.max_steps or --max-steps to let it go on.`,
    code: "max_steps",
    fatal: false,
  });
  return end("max-steps");
}

function buildRequest(context: AgentContext): ModelRequest {
  const request: ModelRequest = context.planMode
    ? {
        system: [...context.system, { text: PLAN_MODE_INSTRUCTIONS }],
        messages: context.thread,
        tools: context.tools.readOnly().definitions(),
      }
    : { system: context.system, messages: context.thread, tools: context.tools.definitions() };
  if (context.maxTokens !== undefined) request.maxTokens = context.maxTokens;
  if (context.temperature !== undefined) request.temperature = context.temperature;
  if (context.thinking) request.thinking = context.thinking;
  if (context.providerOptions) request.providerOptions = context.providerOptions;
  return request;
}

function inputText(input: TurnInput): string {
  if (typeof input === "string") return input;
  return input
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}
