import { randomUUID } from "node:crypto";
import type { AgentContext } from "../agent-loop/agent-context.js";
import { runTurn, type TurnInput, type TurnResult } from "../agent-loop/run-turn.js";
import type { ChangeTracker } from "../changes/change-tracker.js";
import type { CodeIndexService } from "../code-index/code-index-service.js";
import type { AgentEvent } from "../events/agent-events.js";
import type { LifecycleHooks } from "../hooks/lifecycle-hooks.js";

/** One user turn of the lead: prompt hooks, a checkpoint for undo, the loop, after-turn hooks. */
export function leadTurn(parts: {
  context: AgentContext;
  lifecycle: LifecycleHooks;
  tracker: ChangeTracker;
  codeIndex: CodeIndexService | undefined;
}) {
  const { context, lifecycle, tracker, codeIndex } = parts;
  const agent = context.agent;
  return async function* (
    input: TurnInput,
    turnOptions: { signal?: AbortSignal } = {},
  ): AsyncGenerator<AgentEvent, TurnResult> {
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
  };
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
