import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import {
  acquireFileLock,
  compareText,
  errorMessage,
  getLogger,
  LockTimeoutError,
  NyzhiError,
  type ReleaseLock,
  writeFileAtomic,
} from "@nyzhi/config";
import { titleFromMessages } from "./session-title.js";
import type { SessionMeta, SessionRecord } from "./session-types.js";

/** A session that cannot be found, is ambiguous, or cannot be read. */
export class SessionError extends NyzhiError {}

const FILE_FORMAT_VERSION = 1;

/**
 * Sessions as one JSON file each (`<dir>/<id>.json`), written atomically (temp file, fsync,
 * rename), so a crash mid-save leaves the previous version intact.
 */
export class SessionStore {
  constructor(readonly directory: string) {}

  pathOf(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError("session_bad_id", `invalid session id: ${id}`);
    return join(this.directory, `${id}.json`);
  }

  /** Saves the record; sets `updatedAt` and `messageCount`; computes the title only once. */
  async save(record: SessionRecord): Promise<SessionMeta> {
    const meta: SessionMeta = {
      ...record.meta,
      title:
        record.meta.title && record.meta.title !== "untitled"
          ? record.meta.title
          : titleFromMessages(record.messages),
      updatedAt: nextSaveTime(),
      messageCount: record.messages.length,
    };
    const body: Record<string, unknown> = { version: FILE_FORMAT_VERSION, meta, messages: record.messages };
    if (record.agents && Object.keys(record.agents).length > 0) body.agents = record.agents;
    // Private to the user: a thread can hold anything the model read (keys in a .env included).
    await writeFileAtomic(this.pathOf(meta.id), JSON.stringify(body), { mode: 0o600 });
    record.meta = meta;
    return meta;
  }

  async load(id: string): Promise<SessionRecord> {
    const path = this.pathOf(id);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new SessionError("session_not_found", `No session with id ${id} (looked for ${path})`);
      }
      throw error;
    }
    return parseRecord(text, path);
  }

  /** Every readable session, newest first. Unreadable files are skipped and logged. */
  async list(): Promise<SessionMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const metas: SessionMeta[] = [];
    for (const name of names) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      const path = join(this.directory, name);
      try {
        metas.push(parseRecord(await readFile(path, "utf8"), path).meta);
      } catch (error) {
        getLogger().warn({ path, error: errorMessage(error) }, "skipping unreadable session file");
      }
    }
    return metas.sort((left, right) => compareText(right.updatedAt, left.updatedAt));
  }

  /** Sessions whose id starts with `query` or whose title contains it (case-insensitive). */
  async find(query: string): Promise<SessionMeta[]> {
    const lowered = query.toLowerCase();
    return (await this.list()).filter(
      (meta) => meta.id.startsWith(query) || meta.title.toLowerCase().includes(lowered),
    );
  }

  /** Exactly one session matching `query`, or an error that lists the candidates. */
  async resolveOne(query: string): Promise<SessionMeta> {
    const exact = (await this.list()).find((meta) => meta.id === query);
    if (exact) return exact;
    const matches = await this.find(query);
    if (matches.length === 1) return matches[0]!;
    if (matches.length === 0) throw new SessionError("session_not_found", `No session matching '${query}'`);
    const lines = matches.slice(0, 10).map((meta) => `  [${meta.id.slice(0, 8)}] ${meta.title}`);
    throw new SessionError(
      "session_ambiguous",
      `Ambiguous: ${matches.length} sessions match '${query}'. Be more specific.\n${lines.join("\n")}`,
    );
  }

  /** The newest session, or the newest one started in `projectRoot`. */
  async latest(filter: { projectRoot?: string } = {}): Promise<SessionMeta | undefined> {
    const sessions = await this.list();
    if (filter.projectRoot === undefined) return sessions[0];
    return sessions.find((meta) => meta.projectRoot === filter.projectRoot);
  }

  /**
   * Takes the session for this process: a run holds it from loading the thread to saving it, so
   * two runs resuming one session cannot both append and lose one turn. A second taker fails at
   * once with who holds it. The holder refreshes the lock's time every `SESSION_LOCK_HEARTBEAT_MS`;
   * a lock not refreshed for `SESSION_LOCK_STALE_MS` is taken over — its holder died (even if its
   * pid now belongs to another process) or hung, or runs on another host sharing this folder.
   */
  async lock(id: string): Promise<ReleaseLock> {
    const path = `${this.pathOf(id).slice(0, -".json".length)}.lock`;
    let release: ReleaseLock;
    try {
      release = await acquireFileLock(path, {
        timeoutMs: 300,
        staleMs: SESSION_LOCK_STALE_MS,
        liveOwnerStaleMs: SESSION_LOCK_STALE_MS,
      });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      throw new SessionError(
        "session_in_use",
        `Session ${id} is in use by another nyz process (lock ${path}). Wait for it to finish, or delete the lock file if no nyz is running.`,
      );
    }
    const heartbeat = setInterval(() => void refreshLock(path), SESSION_LOCK_HEARTBEAT_MS);
    heartbeat.unref();
    return async () => {
      clearInterval(heartbeat);
      await release();
    };
  }

  /** Renames a session; later saves keep the new title. Refused while a run holds the session. */
  async rename(id: string, title: string): Promise<SessionMeta> {
    const release = await this.lock(id);
    try {
      return await this.#rename(id, title);
    } finally {
      await release();
    }
  }

  async #rename(id: string, title: string): Promise<SessionMeta> {
    const record = await this.load(id);
    const trimmed = title.trim();
    if (trimmed === "") throw new SessionError("session_bad_title", "a session title cannot be empty");
    record.meta.title = trimmed;
    const body: Record<string, unknown> = {
      version: FILE_FORMAT_VERSION,
      meta: record.meta,
      messages: record.messages,
    };
    if (record.agents) body.agents = record.agents;
    await writeFileAtomic(this.pathOf(id), JSON.stringify(body), { mode: 0o600 });
    return record.meta;
  }

  /** Deletes a session; refused while a run holds it (its save would bring it back). */
  async delete(id: string): Promise<void> {
    const release = await this.lock(id);
    try {
      await rm(this.pathOf(id));
    } finally {
      await release();
    }
  }
}

/** How often a held session lock is refreshed, ms. */
export const SESSION_LOCK_HEARTBEAT_MS = 20_000;
/** A session lock not refreshed for this long is taken over, ms. */
export const SESSION_LOCK_STALE_MS = 90_000;

/** Moves a held lock's time to now (atomically, so a reader never sees half a file). */
async function refreshLock(path: string): Promise<void> {
  try {
    const owner = JSON.parse(await readFile(path, "utf8")) as { pid?: number; at?: number };
    if (owner.pid !== process.pid) return;
    await writeFileAtomic(path, JSON.stringify({ ...owner, at: Date.now() }), { fsync: false });
  } catch {
    // Gone or broken: the next save still happens; nothing to refresh.
  }
}

function parseRecord(text: string, path: string): SessionRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SessionError("session_corrupt", `${path}: not valid JSON (${errorMessage(error)})`);
  }
  const record = data as Partial<SessionRecord> & { version?: number };
  if (!record || typeof record !== "object" || !record.meta || !Array.isArray(record.messages)) {
    throw new SessionError("session_corrupt", `${path}: not a nyzhi session file (missing meta or messages)`);
  }
  const result: SessionRecord = { meta: record.meta, messages: record.messages };
  if (record.agents) result.agents = record.agents;
  return result;
}

let lastSaveTime = 0;

/**
 * `updatedAt` for a save: now, but always later than the previous save of this process, so
 * sessions saved within one millisecond still list (and `latest()` picks them) in save order.
 */
function nextSaveTime(): string {
  const now = Date.now();
  lastSaveTime = now > lastSaveTime ? now : lastSaveTime + 1;
  return new Date(lastSaveTime).toISOString();
}
