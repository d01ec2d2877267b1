import { z } from "zod";
import type { BwrapStatus } from "../../engines/sandbox/detect-bwrap.js";
import { defineShippedTool, type Tool } from "../seam/define-tool.js";
import type { ToolResult } from "../seam/tool-types.js";
import { extractCommandPaths } from "./extract-command-paths.js";
import { notFoundInSandboxHint } from "./find-shell.js";
import { prepareCommandSandbox } from "./prepare-command-sandbox.js";
import { runShellCommand, type ShellRunResult } from "./run-shell-command.js";

/** Seconds. */
export const BASH_DEFAULT_TIMEOUT_SECONDS = 120;
/** Seconds. */
export const BASH_MAX_TIMEOUT_SECONDS = 600;
/** Code points of output the model sees (head and tail kept). */
export const BASH_MAX_OUTPUT_CHARS = 30_000;
/** The shell's exit status for a command it could not find. */
const COMMAND_NOT_FOUND = 127;

const DESCRIPTION = `Runs a shell command (bash -c) in the working directory and returns its combined stdout and stderr.
Use it for builds, tests, package managers and other programs; prefer the file tools for reading and editing files.
Depending on the sandbox settings, only the workspace and a private /tmp may be writable and the network may be off.
Background processes do not outlive the command. Output is capped (the start and the end are kept).`;

const inputSchema = z.lazy(() =>
  z.object({
    command: z.string().min(1).describe("The command to run, as you would type it in bash."),
    timeout: z
      .number()
      .positive()
      .max(BASH_MAX_TIMEOUT_SECONDS)
      .optional()
      .describe(
        `Seconds before the command is killed (default ${BASH_DEFAULT_TIMEOUT_SECONDS}, max ${BASH_MAX_TIMEOUT_SECONDS}).`,
      ),
    description: z.string().optional().describe("A few words on what the command does, shown to the user."),
  }),
);

export interface BashToolOptions {
  /** How bubblewrap is found; default detectBwrap() (cached). Tests pass a fake "missing" status. */
  detectSandbox?: () => Promise<BwrapStatus>;
  /** Default BASH_MAX_OUTPUT_CHARS. */
  maxOutputChars?: number;
}

/**
 * The `bash` tool. Sandbox settings come from `context.services.sandbox` (see SandboxSettings);
 * without them commands run under workspace-write on `context.cwd` with the network off.
 */
export function createBashTool(options: BashToolOptions = {}): Tool {
  const maxOutputChars = options.maxOutputChars ?? BASH_MAX_OUTPUT_CHARS;
  return defineShippedTool({
    name: "bash",
    description: DESCRIPTION,
    inputSchema,
    kind: "execute",
    mutates: true,
    // Slightly above the collector's cap, so defineShippedTool never cuts the status lines.
    maxOutputChars: maxOutputChars + 1000,
    paths: (input) => extractCommandPaths(input.command).map((use) => ({ path: use.path, access: "read" })),
    preview: (input) => (input.description ? `${input.command}\n# ${input.description}` : input.command),
    async execute(input, context): Promise<ToolResult> {
      const { sandbox, notice, env, script } = await prepareCommandSandbox(
        context,
        input.command,
        options.detectSandbox,
      );
      const timeoutSeconds = input.timeout ?? BASH_DEFAULT_TIMEOUT_SECONDS;
      const result = await runShellCommand({
        command: script,
        cwd: context.cwd,
        timeoutMs: timeoutSeconds * 1000,
        signal: context.signal,
        onOutput: (text) => context.progress({ type: "output", text }),
        maxOutputChars,
        sandbox,
        env,
      });
      const notFoundHint =
        result.sandboxed && result.exitCode === COMMAND_NOT_FOUND && sandbox
          ? notFoundInSandboxHint({ pathVariable: env.PATH, roots: sandbox.roots })
          : undefined;
      return {
        output: formatBashOutput(result, { timeoutSeconds, notice, notFoundHint }),
        isError: result.timedOut || result.aborted,
        metadata: {
          exitCode: result.exitCode,
          signal: result.exitSignal,
          timedOut: result.timedOut,
          aborted: result.aborted,
          sandboxed: result.sandboxed,
          durationMs: result.durationMs,
        },
      };
    },
  });
}

export const bashTool: Tool = createBashTool();

function formatBashOutput(
  result: ShellRunResult,
  options: { timeoutSeconds: number; notice: string | undefined; notFoundHint: string | undefined },
): string {
  const lines: string[] = [];
  if (options.notice) lines.push(`Note: ${options.notice}.`);
  lines.push(result.output === "" ? "(no output)" : result.output.replace(/\n$/, ""));
  if (result.timedOut) lines.push(`(command timed out after ${options.timeoutSeconds}s)`);
  else if (result.aborted) lines.push("(command cancelled)");
  else if (options.notFoundHint) lines.push(`(exit code ${result.exitCode}: ${options.notFoundHint})`);
  else if (result.exitCode !== 0 && result.exitCode !== null) lines.push(`(exit code ${result.exitCode})`);
  else if (result.exitSignal) lines.push(`(killed by ${result.exitSignal})`);
  return lines.join("\n");
}
