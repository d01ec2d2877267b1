import { spawn } from "node:child_process";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireFileLock, isLockStale, LockTimeoutError, withFileLock } from "./file-lock.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "nyzhi-lock-"));
});
afterEach(() => undefined);

describe("file lock", () => {
  it("serialises read-modify-write cycles so no increment is lost", async () => {
    const lock = join(dir, "counter.lock");
    const file = join(dir, "counter");
    await writeFile(file, "0");
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withFileLock(lock, async () => {
          const value = Number(await readFile(file, "utf8"));
          await new Promise((resolve) => setTimeout(resolve, 1));
          await writeFile(file, String(value + 1));
        }),
      ),
    );
    expect(await readFile(file, "utf8")).toBe("40");
    await expect(stat(lock)).rejects.toThrow();
  });

  it("breaks a lock whose owner process is dead at once", async () => {
    const lock = join(dir, "dead.lock");
    const child = spawn(process.execPath, ["-e", ""]);
    const pid = await new Promise<number>((resolve) => child.on("exit", () => resolve(child.pid!)));
    await writeFile(
      lock,
      JSON.stringify({ pid, host: (await import("node:os")).hostname(), token: "x", at: Date.now() }),
    );
    expect(await isLockStale(lock, 60_000)).toBe(true);
    const started = Date.now();
    const release = await acquireFileLock(lock, { staleMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(1000);
    const owner = JSON.parse(await readFile(lock, "utf8"));
    expect(owner.pid).toBe(process.pid);
    await release();
  });

  it("breaks a live owner's lock only once it is older than staleMs", async () => {
    const lock = join(dir, "old.lock");
    await writeFile(
      lock,
      JSON.stringify({ pid: process.pid, host: "elsewhere", token: "y", at: Date.now() }),
    );
    expect(await isLockStale(lock, 300)).toBe(false);
    const started = Date.now();
    const release = await acquireFileLock(lock, { staleMs: 300 });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(2000);
    await release();
  });

  it("keeps a slow live owner's lock on this host past staleMs, up to liveOwnerStaleMs", async () => {
    const lock = join(dir, "slow.lock");
    const owner = { pid: process.pid, host: hostname(), token: "z", at: Date.now() - 60_000 };
    await writeFile(lock, JSON.stringify(owner));
    expect(await isLockStale(lock, 300)).toBe(false);
    await expect(acquireFileLock(lock, { staleMs: 300, timeoutMs: 400 })).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    expect(await isLockStale(lock, 300, 30_000)).toBe(true);
    await (await acquireFileLock(lock, { staleMs: 300, liveOwnerStaleMs: 30_000, timeoutMs: 1000 }))();
  });

  it("creates the lock's folder when it does not exist yet", async () => {
    const lock = join(dir, "not", "yet", "there.lock");
    await (await acquireFileLock(lock))();
    expect((await stat(join(dir, "not", "yet"))).isDirectory()).toBe(true);
  });

  it("gives up after timeoutMs with an error naming the lock file", async () => {
    const lock = join(dir, "held.lock");
    const release = await acquireFileLock(lock);
    await expect(acquireFileLock(lock, { timeoutMs: 100 })).rejects.toBeInstanceOf(LockTimeoutError);
    await expect(acquireFileLock(lock, { timeoutMs: 50 })).rejects.toThrow(lock);
    await release();
    await (await acquireFileLock(lock, { timeoutMs: 100 }))();
  });

  it("a release does not delete a lock that was broken and taken by someone else", async () => {
    const lock = join(dir, "stolen.lock");
    const release = await acquireFileLock(lock);
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: "h", token: "other", at: Date.now() }));
    await release();
    expect(JSON.parse(await readFile(lock, "utf8")).token).toBe("other");
  });
});
