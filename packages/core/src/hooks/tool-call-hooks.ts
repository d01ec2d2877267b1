import type { ToolCallHooks } from "../agent-loop/agent-context.js";
import { truncateText } from "../tools/seam/truncate-text.js";
import { filesNamedBy } from "./files-named-by.js";
import { firstBlockReason } from "./hook-decisions.js";
import type { HookRunner, RunHooksOptions } from "./hook-runner.js";

/** Cap on `tool_output` sent to post-tool hooks, in code points. */
export const MAX_HOOK_TOOL_OUTPUT_CHARS = 20_000;

/** Tools that change files; a successful call of one fires `after_edit`. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  "edit",
  "write",
  "multi_edit",
  "apply_patch",
  "delete_file",
  "move_file",
  "copy_file",
  "create_dir",
]);

export interface ToolCallHooksOptions {
  /** `session_id` on every hook's stdin. */
  sessionId: string;
}

/**
 * The loop's tool-call hooks, backed by the runner: `pre_tool_use` before a call (a blocking hook's
 * reason becomes the call's result), `post_tool_use` or `post_tool_use_failure` after it, and
 * `after_edit` once a file-changing tool succeeded. Hooks run only after the permission gate
 * allowed the call. Every run gets the call's turn signal, so an interrupted turn kills its hooks
 * (process group and all) instead of waiting up to their timeout.
 */
export function toolCallHooks(runner: HookRunner, options: ToolCallHooksOptions): ToolCallHooks {
  const { sessionId } = options;
  const runOptions = (files: readonly string[], signal: AbortSignal | undefined): RunHooksOptions =>
    signal ? { sessionId, files, signal } : { sessionId, files };
  return {
    async beforeToolCall(call) {
      if (!runner.has("pre_tool_use")) return undefined;
      const results = await runner.run(
        "pre_tool_use",
        { tool_name: call.name, tool_input: call.input },
        runOptions(filesNamedBy(call.name, call.input, runner.toolCwd), call.signal),
      );
      const reason = firstBlockReason(results);
      return reason === undefined ? undefined : { block: reason };
    },
    async afterToolCall(call) {
      const files = filesNamedBy(call.name, call.input, runner.toolCwd);
      const options = runOptions(files, call.signal);
      if (!call.isError && FILE_CHANGING_TOOLS.has(call.name) && files.length > 0) {
        await runner.run(
          "after_edit",
          { tool_name: call.name, file: files[files.length - 1] ?? "", files },
          options,
        );
      }
      const common = {
        tool_name: call.name,
        tool_input: call.input,
        tool_output: truncateText(call.output, MAX_HOOK_TOOL_OUTPUT_CHARS),
      };
      if (call.isError) {
        await runner.run("post_tool_use_failure", { ...common, success: false }, options);
      } else {
        await runner.run("post_tool_use", { ...common, success: true }, options);
      }
    },
  };
}
