import { spawn } from "node:child_process";

export interface GitOutput {
  stdout: string;
  stderr: string;
  code: number;
}

/** Who commits for an agent: its worktree's commits and the snapshots of a tree's state. */
const AGENT_IDENTITY = ["-c", "user.name=nyzhi agent", "-c", "user.email=agent@nyzhi.invalid"];

/**
 * Runs git in `cwd` (no pager, no prompts, English messages) with optional extra environment and
 * stdin; resolves with the exit code, never throws for a failing git (a missing git rejects).
 */
export function git(
  cwd: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...AGENT_IDENTITY, "-c", "core.quotepath=false", ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", LC_ALL: "C", ...options.env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout, stderr, code: code ?? 1 }));
    if (child.stdin) {
      // git may exit before it reads all of it (a failing apply): that is its answer, not a crash.
      child.stdin.on("error", () => {});
      child.stdin.end(options.input);
    }
  });
}

/** Runs git and returns its trimmed stdout; a failure throws with git's message and the command. */
export async function gitOrThrow(
  cwd: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<string> {
  const result = await git(cwd, args, options);
  if (result.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout.trim();
}
