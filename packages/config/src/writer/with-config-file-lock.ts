import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { withFileLock } from "../base/file-lock.js";

/**
 * Runs one read-modify-write of a config file (`nyz config set`, `nyz mcp add`/`remove`) while
 * holding `<file>.lock`, so concurrent writers each see the previous one's result instead of
 * overwriting it. The lock is taken beside the file `writeFileAtomic` replaces: a symlinked
 * config (dotfiles) is locked at its target, so every link to it shares one lock; a file that does
 * not exist yet is locked by its own path, the same lock its later writes take. A writer that
 * cannot get the lock in time fails with `LockTimeoutError` naming the lock file and writes
 * nothing, rather than losing another writer's change.
 */
export async function withConfigFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  return withFileLock(`${lockTargetOf(file)}.lock`, task);
}

function lockTargetOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}
