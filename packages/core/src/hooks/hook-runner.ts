import { getLogger } from "@nyzhi/config";
import { formatHookSummary } from "./format-hook-summary.js";
import type { HookConfig, HookEvent, HookEventContexts, HookResult, HookStatus } from "./hook-types.js";
import { hookFiltersPass, matchesFilePattern, splitList } from "./match-hook.js";
import { spawnHookCommand } from "./spawn-hook-command.js";

/** Timeout when a hook sets none (or 0), seconds. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 30;

/** The two logger calls the runner makes; a pino `Logger` fits. */
export interface HookLogger {
  warn(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface HookRunnerOptions {
  /** `agent.hooks` from the merged config: global hooks, then project hooks. */
  hooks: readonly HookConfig[];
  /** The project root: hooks run here (as Claude Code's do), and it is `NYZHI_PROJECT_DIR`. */
  cwd: string;
  /**
   * The agent's working directory: where relative paths in tool arguments resolve (the files a
   * hook's `pattern` and `{file}` see), and the `cwd` on a hook's stdin. Default `cwd`.
   */
  toolCwd?: string;
  /** Base environment of every hook. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** `session_id` on stdin unless a run names another. Default "". */
  sessionId?: string;
  /** Default: `getLogger()` from @nyzhi/config, taken when the first hook runs. */
  logger?: HookLogger;
  /** Called with each result as it completes (a host shows `summary`). */
  onResult?: (result: HookResult) => void;
}

export interface RunHooksOptions {
  sessionId?: string;
  /**
   * Files the event concerns: checked against `pattern`, and substituted for `{file}` (a hook
   * whose command has `{file}` runs once per matching file, with `file` set on stdin).
   */
  files?: readonly string[];
  /** The tool name checked against `tool_name` (default: `tool_name` of the context, if any). */
  toolName?: string;
  /** Kills running hooks (their status becomes `killed`). */
  signal?: AbortSignal;
}

/**
 * Runs the configured hooks for an event: every hook with that event whose filters pass, one at a
 * time in config order. A failing, timed-out or unstartable hook is a result (and a log line),
 * never an exception.
 */
export class HookRunner {
  private readonly options: HookRunnerOptions;

  constructor(options: HookRunnerOptions) {
    this.options = options;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  /** Where relative paths in tool arguments resolve (see `HookRunnerOptions.toolCwd`). */
  get toolCwd(): string {
    return this.options.toolCwd ?? this.options.cwd;
  }

  /** Whether any hook listens to `event` (lets callers skip building a context). */
  has(event: HookEvent): boolean {
    return this.options.hooks.some((hook) => hook.event === event);
  }

  async run<E extends HookEvent>(
    event: E,
    context: HookEventContexts[E],
    options: RunHooksOptions = {},
  ): Promise<HookResult[]> {
    const files = options.files ?? [];
    const contextToolName = (context as { tool_name?: unknown }).tool_name;
    const toolName = options.toolName ?? (typeof contextToolName === "string" ? contextToolName : undefined);
    const subject = { files, cwd: this.options.cwd, ...(toolName === undefined ? {} : { toolName }) };
    const payload = {
      hook_event_name: pascalCase(event),
      session_id: options.sessionId ?? this.options.sessionId ?? "",
      // The agent's working directory, as Claude Code's `cwd`; the hook itself runs in the root.
      cwd: this.toolCwd,
      ...context,
    };
    const results: HookResult[] = [];
    for (const hook of this.options.hooks) {
      if (hook.event !== event || !hookFiltersPass(hook, subject)) continue;
      for (const invocation of this.invocationsOf(hook, files)) {
        const stdin = JSON.stringify(
          invocation.file === undefined ? payload : { ...payload, file: invocation.file },
        );
        const result = await this.runOne(hook, event, invocation.command, stdin, options.signal);
        this.report(result);
        results.push(result);
      }
    }
    return results;
  }

  /** One run per matching file when the command names `{file}`, else one run. */
  private invocationsOf(
    hook: HookConfig,
    files: readonly string[],
  ): Array<{ command: string; file: string | undefined }> {
    if (!hook.command.includes("{file}")) return [{ command: hook.command, file: undefined }];
    const patterns = splitList(hook.pattern);
    const matching =
      patterns.length === 0 ? files : files.filter((file) => matchesFilePattern(patterns, file, this.cwd));
    if (matching.length === 0) return [{ command: hook.command.replaceAll("{file}", ""), file: undefined }];
    return matching.map((file) => ({ command: hook.command.replaceAll("{file}", shellQuote(file)), file }));
  }

  private async runOne(
    hook: HookConfig,
    event: HookEvent,
    command: string,
    stdin: string,
    signal: AbortSignal | undefined,
  ): Promise<HookResult> {
    const startedAt = Date.now();
    const text = textOf(hook);
    const hasCommand = command.trim() !== "";
    let outcome: {
      status: HookStatus;
      exitCode: number | null;
      stdout: string;
      stderr: string;
      combined: string;
    };
    if (hasCommand) {
      outcome = await spawnHookCommand(command, {
        cwd: this.options.cwd,
        env: {
          ...(this.options.env ?? process.env),
          NYZHI_HOOK_EVENT: event,
          NYZHI_PROJECT_DIR: this.options.cwd,
        },
        stdin,
        timeoutMs: (hook.timeout > 0 ? hook.timeout : DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000,
        signal,
      });
    } else if (hook.hook_type === "agent" && text === undefined) {
      const stderr = "hook_type=agent requires 'instructions' or 'prompt' field";
      outcome = { status: "failed", exitCode: 1, stdout: "", stderr, combined: stderr };
    } else {
      outcome = { status: "ok", exitCode: 0, stdout: "", stderr: "", combined: "" };
    }
    const output = displayOutput(hook, text, outcome, hasCommand);
    const label = hasCommand ? command : `${hook.hook_type} hook`;
    return {
      event,
      hook,
      command: hasCommand ? command : "",
      status: outcome.status,
      exitCode: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      output,
      durationMs: Date.now() - startedAt,
      summary: formatHookSummary({ label, status: outcome.status, exitCode: outcome.exitCode, output }),
    };
  }

  private report(result: HookResult): void {
    const logger = this.options.logger ?? getLogger();
    const details = {
      event: result.event,
      command: result.command,
      status: result.status,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
    };
    if (result.status === "ok") logger.debug(details, "hook ran");
    else logger.warn({ ...details, stderr: result.stderr.slice(-2000) }, "hook did not succeed");
    try {
      this.options.onResult?.(result);
    } catch (error) {
      logger.warn({ error: String(error) }, "hook result listener threw");
    }
  }
}

/** The prompt/agent text: `prompt` first for prompt hooks, `instructions` first for agent hooks. */
function textOf(hook: HookConfig): string | undefined {
  const nonEmpty = (value: string | undefined) => (value && value.trim() !== "" ? value : undefined);
  if (hook.hook_type === "prompt") return nonEmpty(hook.prompt) ?? nonEmpty(hook.instructions);
  if (hook.hook_type === "agent") return nonEmpty(hook.instructions) ?? nonEmpty(hook.prompt);
  return undefined;
}

/**
 * Command hooks show their combined output. A prompt hook shows its text, then the command's
 * stdout after a blank line; an agent hook its text, then the stdout under `Context:`.
 */
function displayOutput(
  hook: HookConfig,
  text: string | undefined,
  outcome: { stdout: string; combined: string },
  hasCommand: boolean,
): string {
  if (text === undefined) return outcome.combined;
  if (!hasCommand) return text;
  if (hook.hook_type === "agent") return `${text}\n\nContext:\n${outcome.stdout}`;
  return `${text}\n\n${outcome.stdout}`;
}

/** `pre_tool_use` → `PreToolUse`, the `hook_event_name` Claude Code hooks expect. */
export function pascalCase(event: HookEvent): string {
  return event
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Leaves plain paths alone (so `'{file}'` in a command still works) and quotes the rest. */
export function shellQuote(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
