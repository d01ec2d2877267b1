import type { HookConfig, HookEvent } from "@nyzhi/config";

export type { HookConfig, HookEvent };

/**
 * The event-specific fields of the JSON a hook reads on stdin, per event. The runner adds
 * `hook_event_name`, `session_id` and `cwd` to every one.
 */
export interface HookEventContexts {
  session_start: { source: "startup" | "resume" };
  user_prompt_submit: { prompt: string };
  pre_tool_use: { tool_name: string; tool_input: unknown };
  post_tool_use: { tool_name: string; tool_input: unknown; tool_output: string; success: true };
  post_tool_use_failure: { tool_name: string; tool_input: unknown; tool_output: string; success: false };
  /**
   * Who asks is named as in `subagent_start`: `agent_id` (`lead` for the lead), `depth` (0 for the
   * lead), and the subagent's `nickname` and `role` (absent for the lead).
   */
  permission_request: { tool_name: string; tool_input: unknown } & AskingAgentHookContext;
  notification: { message: string; notification_type?: string };
  /** `file` is the path substituted for `{file}`; `files` every path the tool changed (absolute). */
  after_edit: { tool_name: string; file: string; files: string[] };
  after_turn: { turn_id: string; reason: string; steps: number };
  subagent_start: SubagentHookContext;
  subagent_end: SubagentHookContext & { status: string; result?: string };
  compact_context: { trigger: "auto" | "manual"; estimated_tokens: number };
  worktree_create: { path: string; branch?: string };
  worktree_remove: { path: string; branch?: string };
  /** `source` names the layer that changed (`global`, `project`, `command` …). */
  config_change: { source: string; file?: string; keys?: string[] };
  teammate_idle: { team_name: string; teammate_name: string };
  task_completed: { team_name: string; task_id: string; task_subject: string; teammate_name?: string };
}

export interface SubagentHookContext {
  agent_id: string;
  nickname: string;
  role: string;
  depth: number;
}

/** The agent a hook's event comes from; the lead has no nickname or role. */
export type AskingAgentHookContext = Pick<SubagentHookContext, "agent_id" | "depth"> &
  Partial<Pick<SubagentHookContext, "nickname" | "role">>;

/**
 * How a hook ended. `failed` means it exited non-zero (or could not start: exit 127);
 * `timed_out` that the runner killed it at its timeout; `killed` that a signal ended it otherwise
 * (an abort, or something outside nyzhi).
 */
export type HookStatus = "ok" | "failed" | "timed_out" | "killed";

/** One hook's run. Failing hooks are results, never exceptions. */
export interface HookResult {
  event: HookEvent;
  hook: HookConfig;
  /** The command as run (after `{file}` substitution); "" when a prompt/agent hook ran none. */
  command: string;
  status: HookStatus;
  /** Exit code; null when a signal ended the process. */
  exitCode: number | null;
  /** Captured stdout / stderr (each capped to its last MAX_HOOK_CAPTURE_CHARS characters). */
  stdout: string;
  stderr: string;
  /**
   * What to show the user: the combined output of a command hook, or the text of a prompt/agent
   * hook. Display only; it never enters the conversation.
   */
  output: string;
  /** Wall time, ms. */
  durationMs: number;
  /** `[hook] <cmd> (ok|exit N|timed out|killed)` plus the last 10 output lines. */
  summary: string;
}
