import { execFile } from "node:child_process";

/**
 * Runs `file args` (e.g. `tmux -V`) and gives its first output line, or undefined when it is not
 * installed or fails. Never throws; gives up after `timeoutMs`.
 */
export function probeExecutable(
  file: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { timeout: options.timeoutMs ?? 5_000, env: options.env ?? process.env, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) return resolve(undefined);
        const text = `${stdout}`.trim() || `${stderr}`.trim();
        resolve(text.split("\n", 1)[0] ?? "");
      },
    );
  });
}
