import { filesNamedBy } from "./files-named-by.js";
import {
  exitCode2Feedback,
  firstBlockReason,
  type PermissionHookAnswer,
  permissionAnswerOf,
} from "./hook-decisions.js";
import type { HookRunner, RunHooksOptions } from "./hook-runner.js";
import type { HookEventContexts, HookResult } from "./hook-types.js";

type Context<E extends keyof HookEventContexts> = HookEventContexts[E];
type Fire<E extends keyof HookEventContexts> = (
  context: Context<E>,
  options?: FireOptions,
) => Promise<HookResult[]>;

/** Per-run options of a lifecycle event. */
export interface FireOptions {
  /**
   * Kills this run's hooks when aborted (a turn's signal), beside the session-wide signal of
   * `LifecycleHooksOptions`.
   */
  signal?: AbortSignal | undefined;
}

/**
 * Typed entry points for every hook event outside a tool call, for the runtime, the TUI and the
 * team code to call at the matching moment. Each never throws; the ones with a say in what happens
 * next return the verdict beside the results.
 */
export interface LifecycleHooks {
  sessionStart: Fire<"session_start">;
  /** A block stops the turn before the model sees the prompt; `block` is the reason to show. */
  userPromptSubmit(
    context: Context<"user_prompt_submit">,
    options?: FireOptions,
  ): Promise<{ block?: string; results: HookResult[] }>;
  afterTurn: Fire<"after_turn">;
  subagentStart: Fire<"subagent_start">;
  subagentEnd: Fire<"subagent_end">;
  compactContext: Fire<"compact_context">;
  notification: Fire<"notification">;
  /** A hook's `allow`/`deny` answers the approval; no answer leaves it to the user. */
  permissionRequest(
    context: Context<"permission_request">,
    options?: FireOptions,
  ): Promise<{ answer?: PermissionHookAnswer; results: HookResult[] }>;
  /** Exit code 2: the teammate keeps working, with `keepWorking` (the hook's stderr) as its input. */
  teammateIdle(
    context: Context<"teammate_idle">,
    options?: FireOptions,
  ): Promise<{ keepWorking?: string; results: HookResult[] }>;
  /** Exit code 2: the completion is rejected, with `reject` (the hook's stderr) as the reason. */
  taskCompleted(
    context: Context<"task_completed">,
    options?: FireOptions,
  ): Promise<{ reject?: string; results: HookResult[] }>;
  configChange: Fire<"config_change">;
  worktreeCreate: Fire<"worktree_create">;
  worktreeRemove: Fire<"worktree_remove">;
}

export interface LifecycleHooksOptions {
  sessionId: string;
  /** Kills running hooks when aborted (e.g. the session ends). */
  signal?: AbortSignal;
}

export function lifecycleHooks(runner: HookRunner, options: LifecycleHooksOptions): LifecycleHooks {
  /** The session's options, with the run's own signal joined to the session's. */
  const runOptions = (fireOptions: FireOptions | undefined): RunHooksOptions => {
    const signals = [options.signal, fireOptions?.signal].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    if (signals.length === 0) return { sessionId: options.sessionId };
    const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
    return { sessionId: options.sessionId, signal };
  };
  const fire =
    <E extends keyof HookEventContexts>(event: E): Fire<E> =>
    (context, fireOptions) =>
      runner.run(event, context, runOptions(fireOptions));
  return {
    sessionStart: fire("session_start"),
    async userPromptSubmit(context, fireOptions) {
      const results = await runner.run("user_prompt_submit", context, runOptions(fireOptions));
      const block = firstBlockReason(results);
      return block === undefined ? { results } : { block, results };
    },
    afterTurn: fire("after_turn"),
    subagentStart: fire("subagent_start"),
    subagentEnd: fire("subagent_end"),
    compactContext: fire("compact_context"),
    notification: fire("notification"),
    async permissionRequest(context, fireOptions) {
      const files = filesNamedBy(context.tool_name, context.tool_input, runner.toolCwd);
      const results = await runner.run("permission_request", context, { ...runOptions(fireOptions), files });
      const answer = permissionAnswerOf(results);
      return answer === undefined ? { results } : { answer, results };
    },
    async teammateIdle(context, fireOptions) {
      const results = await runner.run("teammate_idle", context, runOptions(fireOptions));
      const keepWorking = exitCode2Feedback(results);
      return keepWorking === undefined ? { results } : { keepWorking, results };
    },
    async taskCompleted(context, fireOptions) {
      const results = await runner.run("task_completed", context, runOptions(fireOptions));
      const reject = exitCode2Feedback(results);
      return reject === undefined ? { results } : { reject, results };
    },
    configChange: fire("config_change"),
    worktreeCreate: fire("worktree_create"),
    worktreeRemove: fire("worktree_remove"),
  };
}
