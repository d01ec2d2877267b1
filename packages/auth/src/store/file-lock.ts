import { mkdir, open, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { NyzhiError } from "@nyzhi/config";

export interface FileLockOptions {
  /** Give up after this long, in ms. Default 10 000. */
  timeoutMs?: number;
  /** A lock file older than this is left over from a crashed process and is removed, in ms. Default 30 000. */
  staleMs?: number;
  /** Between attempts, in ms. Default 25. */
  retryMs?: number;
}

/**
 * Runs `task` while holding `<path>.lock`, created with O_EXCL, so nyzhi processes sharing one
 * `auth.json` do not lose each other's read-modify-write updates. The lock is removed afterwards.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lockPath).then(
        (stats) => Date.now() - stats.mtimeMs,
        () => 0,
      );
      if (age > staleMs) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() >= deadline) {
        throw new NyzhiError(
          "auth_file_locked",
          `${lockPath} has been held for over ${Math.round(timeoutMs / 1000)} s by another nyzhi process. ` +
            "If no other nyzhi is running, delete the lock file.",
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 25));
    }
  }
  try {
    return await task();
  } finally {
    await rm(lockPath, { force: true });
  }
}
