import { getLogger } from "@nyzhi/config";
import {
  abortableSleep,
  computeBackoff,
  type LanguageModel,
  type ModelRequest,
  type Usage,
} from "@nyzhi/provider";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { StepRetryPolicy } from "./agent-context.js";
import { emptyOutcome, type StepOutcome, streamStep } from "./stream-step.js";

/** Retries of a step cut off mid-message when the agent's context sets none (`agent.retry`'s defaults). */
export const DEFAULT_STEP_RETRY: StepRetryPolicy = {
  maxRetries: 3,
  initialBackoffMs: 1000,
  maxBackoffMs: 30_000,
};

export interface StreamStepWithRetryOptions {
  signal: AbortSignal;
  agent: AgentTag;
  emit: (event: AgentEvent) => void;
  policy: StepRetryPolicy;
  /** Usage of an attempt that was cut off and retried (it was paid for). */
  onDiscardedUsage: (usage: Usage) => void;
}

/**
 * Streams one step; when the stream breaks off mid-message with a retryable failure (after content
 * arrived, which the provider's retry passes through rather than duplicate output), it emits a
 * `retry` event whose `discard` names what the cut attempt streamed, waits with backoff and sends
 * the same request again, up to `policy.maxRetries` times. A cut attempt's content is dropped
 * whole: none of it reaches the thread and none of its tool calls runs, even one that arrived
 * complete. Failures before any content surface as they are (the provider's retry already had
 * them). An abort during the wait returns an empty outcome.
 */
export async function streamStepWithRetry(
  model: LanguageModel,
  request: ModelRequest,
  options: StreamStepWithRetryOptions,
): Promise<StepOutcome> {
  const { signal, agent, emit, policy } = options;
  for (let attempt = 1; ; attempt++) {
    const outcome = await streamStep(model, request, { signal, agent, emit });
    const error = outcome.error;
    if (!error || !outcome.received || !error.retryable || signal.aborted || attempt > policy.maxRetries) {
      return outcome;
    }
    if (outcome.usage) options.onDiscardedUsage(outcome.usage);
    const waitMs = computeBackoff(attempt, error.retryAfterMs, policy);
    getLogger().warn(
      { err: error, agentId: agent.agentId, attempt, waitMs },
      "model stream broke off mid-message; retrying the step",
    );
    emit({
      type: "retry",
      agent,
      attempt,
      maxAttempts: policy.maxRetries,
      waitMs,
      reason: error.message,
      discard: { text: outcome.text, reasoning: outcome.reasoning, toolCalls: outcome.startedToolCalls },
    });
    try {
      await (policy.sleep ?? abortableSleep)(waitMs, signal);
    } catch {
      return emptyOutcome();
    }
  }
}
