import { execFile } from "node:child_process";
import { ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";

/** What git tools return to the model at most, in code points (50 KiB). */
export const GIT_MAX_OUTPUT_CHARS = 50 * 1024;
/** Bytes git may print before it is cut off; output beyond the cap is truncated anyway. */
const MAX_BUFFER_BYTES = 16 * 1024 * 1024;

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs real git in the workspace (`context.cwd`) with colours, pagers and prompts off and a stable
 * English locale. Resolves with the exit code instead of throwing, except outside a repository,
 * which is a ToolError saying so.
 */
export function runGit(
  context: Pick<ToolContext, "cwd" | "signal">,
  args: readonly string[],
): Promise<GitResult> {
  const argv = ["-c", "color.ui=false", "-c", "core.quotepath=false", "-c", "core.pager=cat", ...args];
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    LC_ALL: "C",
    GIT_OPTIONAL_LOCKS: "0",
  };
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      argv,
      { cwd: context.cwd, env, maxBuffer: MAX_BUFFER_BYTES, signal: context.signal, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") {
          const missing = error.code === "ENOENT" ? "git is not installed (or not on PATH)." : error.message;
          return reject(new ToolError(missing, { cause: error }));
        }
        if (/not a git repository/i.test(stderr)) {
          return reject(
            new ToolError(
              `${context.cwd} is not inside a git repository. Run \`git init\` first or open a repository.`,
            ),
          );
        }
        resolvePromise({ stdout, stderr, exitCode: error ? Number(error.code) : 0 });
      },
    );
  });
}

/** Runs git and throws a ToolError with git's message when it fails. */
export async function runGitOrThrow(
  context: Pick<ToolContext, "cwd" | "signal">,
  args: readonly string[],
): Promise<string> {
  const result = await runGit(context, args);
  if (result.exitCode !== 0) {
    const message = (result.stderr || result.stdout).trim() || `exit code ${result.exitCode}`;
    throw new ToolError(`git ${args[0]} failed: ${message}`);
  }
  return result.stdout;
}

/** A ref, branch or author argument: never an option (argument injection). */
export function isSafeGitArgument(value: string): boolean {
  return value.length > 0 && !value.startsWith("-") && !value.includes("\0");
}
