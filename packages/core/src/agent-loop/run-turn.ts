import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { ModelMessage, ModelRequest, Usage, UserContentPart } from "@nyzhi/provider";
import { addUsage, emptyUsage } from "@nyzhi/provider";
import { CompactionError } from "../context/compaction/compaction-error.js";
import type { AgentEvent, TurnEndReason } from "../events/agent-events.js";
import { EventQueue } from "../events/event-queue.js";
import type { AgentContext } from "./agent-context.js";
import { executeToolCalls } from "./execute-tool-calls.js";
import { streamStep } from "./stream-step.js";

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
 * exactly one result.
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

  const end = (reason: TurnEndReason): TurnResult => {
    emit({ type: "turn-end", agent, turnId, reason, steps: step, usage, costUsd, text });
    return { reason, steps: step, text, usage, costUsd };
  };

  emit({ type: "turn-start", agent, turnId, input: inputText(input) });
  const request: ModelMessage = { role: "user", content: input };
  context.turnRequest = request;
  context.thread.push(request);

  while (step < maxSteps) {
    step += 1;
    for (const message of (await context.takePendingMessages?.()) ?? []) context.thread.push(message);
    emit({ type: "step-start", agent, step });
    if (context.beforeModelRequest) {
      const countUsage = (spent: Usage | undefined) => {
        if (!spent) return;
        const spentCost = context.costOf?.(spent) ?? 0;
        usage = addUsage(usage, spent);
        costUsd += spentCost;
        emit({ type: "usage", agent, step, usage: spent, costUsd: spentCost });
      };
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
    const outcome = await streamStep(context.model, buildRequest(context), { signal, agent, emit });
    if (outcome.usage) {
      const stepCost = context.costOf?.(outcome.usage) ?? 0;
      usage = addUsage(usage, outcome.usage);
      costUsd += stepCost;
      emit({ type: "usage", agent, step, usage: outcome.usage, costUsd: stepCost });
    }
    text = outcome.text;

    if (signal.aborted || outcome.error) {
      // Keep what the model said, but not tool calls that will never get results.
      const said = outcome.content.filter((part) => part.type !== "tool-call");
      if (said.length > 0) context.thread.push({ role: "assistant", content: said });
      if (signal.aborted) {
        emit({ type: "step-end", agent, step, finishReason: "aborted", toolCalls: 0 });
        return end("aborted");
      }
      const error = outcome.error!;
      emit({ type: "step-end", agent, step, finishReason: "error", toolCalls: 0 });
      emit({ type: "error", agent, message: error.message, code: error.code, fatal: true, error });
      return end("error");
    }

    if (outcome.content.length > 0) context.thread.push({ role: "assistant", content: outcome.content });
    if (outcome.toolCalls.length === 0) {
      emit({ type: "step-end", agent, step, finishReason: outcome.finishReason ?? "stop", toolCalls: 0 });
      return end("completed");
    }

    const results = await executeToolCalls(context, outcome.toolCalls, { signal, emit });
    context.thread.push({ role: "tool", content: results });
    emit({
      type: "step-end",
      agent,
      step,
      finishReason: outcome.finishReason ?? "tool-calls",
      toolCalls: results.length,
    });
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
  const request: ModelRequest = {
    system: context.system,
    messages: context.thread,
    tools: context.tools.definitions(),
  };
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
