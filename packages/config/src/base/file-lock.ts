import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { link, rename, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { NyzhiError } from "./errors.js";

/**
 * A cross-process lock on a path, made of an `O_EXCL` lock file holding the owner's pid, host,
 * a random token and the time it was taken. Several `nyz` processes sharing a team serialise their
 * read-modify-write cycles on it.
 *
 * A lock is stale when its owner is a dead process on this host; when its owner is on another
 * host (whose pids we cannot check) and it is older than `staleMs`; or when its owner is alive on
 * this host but it is older than `liveOwnerStaleMs` (10 minutes: a pid reused by now, or a holder
 * that hung). A live holder that is merely slow — an OAuth refresh over a slow network, a keychain
 * prompt — keeps its lock. Breaking a stale lock is itself guarded by a
 * second `O_EXCL` file (`<lock>.break`), and the breaker renames the lock away and checks the token
 * it moved before deleting it, so two processes that both saw the same stale lock cannot delete a
 * fresh lock the other one has just taken. Why this is not `proper-lockfile`:
 * docs/decisions/011-own-file-lock-and-atomic-write.md.
 */
export interface FileLockOptions {
  /** A lock of an owner on another host older than this is broken, ms. Default 10 000. */
  staleMs?: number;
  /** A lock of a live owner on this host older than this is broken, ms. Default 600 000. */
  liveOwnerStaleMs?: number;
  /** Give up acquiring after this long, ms. Default 30 000. */
  timeoutMs?: number;
  /** First retry delay; doubles up to `maxDelayMs` (with jitter), ms. Default 1. */
  minDelayMs?: number;
  /** Longest retry delay, ms. Default 10. */
  maxDelayMs?: number;
}

/** The lock could not be taken in `timeoutMs`. */
export class LockTimeoutError extends NyzhiError {
  constructor(path: string, timeoutMs: number) {
    super(
      "lock_timeout",
      `Timed out after ${timeoutMs} ms waiting for the lock ${path}. If no nyz process is running, delete that file.`,
    );
  }
}

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  /** Epoch ms when the lock was taken. */
  at: number;
}

export const DEFAULT_STALE_LOCK_MS = 10_000;
export const DEFAULT_LIVE_OWNER_STALE_MS = 600_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const HOST = hostname();

/** Releases a held lock; releasing twice is harmless. */
export type ReleaseLock = () => Promise<void>;

/** Takes the lock at `path`, waiting (with backoff) while another process holds it. */
export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<ReleaseLock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_LOCK_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxDelay = options.maxDelayMs ?? 10;
  let delay = options.minDelayMs ?? 1;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const owner: LockOwner = {
      pid: process.pid,
      host: HOST,
      token: randomBytes(8).toString("hex"),
      at: Date.now(),
    };
    if (tryCreate(path, owner)) return releaser(path, owner.token);
    await breakIfStale(path, staleMs, options.liveOwnerStaleMs ?? DEFAULT_LIVE_OWNER_STALE_MS);
    if (Date.now() >= deadline) throw new LockTimeoutError(path, timeoutMs);
    await sleep(delay / 2 + Math.random() * delay);
    delay = Math.min(maxDelay, delay * 2);
  }
}

/** Runs `task` while holding the lock at `path`. */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const release = await acquireFileLock(path, options);
  try {
    return await task();
  } finally {
    await release();
  }
}

/** Creates the lock file with O_EXCL; false when it exists. Synchronous: a few microseconds of work. */
function tryCreate(path: string, owner: LockOwner, madeFolder = false): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    if (codeOf(error) !== "ENOENT" || madeFolder) throw error;
    // The lock's folder does not exist yet (a first login, a first refresh): create it and retry.
    mkdirSync(dirname(path), { recursive: true });
    return tryCreate(path, owner, true);
  }
  try {
    writeFileSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function releaser(path: string, token: string): ReleaseLock {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    // Only delete the lock if it is still ours (it may have been broken as stale).
    const owner = readOwner(path);
    if (owner?.token === token) unlinkIfPresent(path);
  };
}

/** Whether the lock at `path` may be broken (see the rules above `FileLockOptions`). */
export async function isLockStale(
  path: string,
  staleMs: number,
  liveOwnerStaleMs: number = DEFAULT_LIVE_OWNER_STALE_MS,
): Promise<boolean> {
  const owner = readOwner(path);
  if (owner) {
    const age = Date.now() - owner.at;
    if (owner.host === HOST) return !isAlive(owner.pid) || age > liveOwnerStaleMs;
    return age > staleMs;
  }
  // No readable owner yet: the holder is between creating and writing the file, or died there.
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > staleMs;
}

async function breakIfStale(path: string, staleMs: number, liveOwnerStaleMs: number): Promise<void> {
  if (!(await isLockStale(path, staleMs, liveOwnerStaleMs))) return;
  const guard = `${path}.break`;
  const guardOwner: LockOwner = {
    pid: process.pid,
    host: HOST,
    token: randomBytes(8).toString("hex"),
    at: Date.now(),
  };
  if (!tryCreate(guard, guardOwner)) {
    // Someone else is breaking it; clear a guard whose breaker died (it holds it for microseconds).
    const guardStaleMs = Math.min(staleMs, 2_000);
    if (await isLockStale(guard, guardStaleMs, guardStaleMs)) unlinkIfPresent(guard);
    return;
  }
  try {
    const seen = readOwner(path);
    if (!(await isLockStale(path, staleMs, liveOwnerStaleMs))) return;
    const moved = `${path}.stale.${guardOwner.token}`;
    try {
      await rename(path, moved);
    } catch (error) {
      if (codeOf(error) === "ENOENT") return;
      throw error;
    }
    const taken = readOwner(moved);
    if (taken && taken.token !== seen?.token) {
      // The holder released and someone took a fresh lock in between: put it back (never over
      // a lock taken since), then drop the moved name.
      await link(moved, path).catch(() => undefined);
      unlinkIfPresent(moved);
      return;
    }
    unlinkIfPresent(moved);
  } finally {
    unlinkIfPresent(guard);
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockOwner>;
    if (typeof parsed.pid === "number" && typeof parsed.at === "number" && typeof parsed.token === "string")
      return { pid: parsed.pid, host: String(parsed.host ?? ""), token: parsed.token, at: parsed.at };
    return undefined;
  } catch {
    return undefined;
  }
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    ignoreMissing(error);
  }
}

/** Whether a process with this pid exists (EPERM means it exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== "ENOENT") throw error;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
