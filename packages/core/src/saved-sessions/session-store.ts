import { createHash } from "node:crypto";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  acquireFileLock,
  compareText,
  errorMessage,
  getLogger,
  LockTimeoutError,
  NyzhiError,
  type ReleaseLock,
  readFileIfExists,
  redactKnownSecrets,
  writeFileAtomic,
} from "@nyzhi/config";
import { replayJournal, SessionJournal } from "./session-journal.js";
import { titleFromMessages } from "./session-title.js";
import type {
  DamagedSession,
  ResolvedSession,
  SessionMeta,
  SessionRecord,
  SessionScan,
} from "./session-types.js";

/** A session that cannot be found, is ambiguous, or cannot be read. */
export class SessionError extends NyzhiError {}

const FILE_FORMAT_VERSION = 1;

/**
 * Sessions as one JSON file each (`<dir>/<id>.json`), written atomically (temp file, fsync,
 * rename), so a crash mid-save leaves the previous version intact; beside it, while a run is in a
 * turn, its journal (`<id>.jsonl`, see `SessionJournal`) of the steps finished since that save.
 */
export class SessionStore {
  /** A hash of what each session's last save wrote (its save time aside), by id. */
  readonly #saved = new Map<string, string>();

  constructor(readonly directory: string) {}

  pathOf(id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new SessionError("session_bad_id", `invalid session id: ${id}`);
    return join(this.directory, `${id}.json`);
  }

  /** The session's journal: the steps finished since its last save. */
  journalPathOf(id: string): string {
    return `${this.pathOf(id).slice(0, -".json".length)}.jsonl`;
  }

  /** The folder of the session's file changes (`ChangeHistory`), for `/undo` after a restart. */
  changesPathOf(id: string): string {
    return `${this.pathOf(id).slice(0, -".json".length)}.changes`;
  }

  /**
   * The journal a run holding the session (`lock`) appends each finished step to; `record` is
   * the session as loaded (or new). The next `save` of the record takes in its steps and removes it.
   */
  async openJournal(record: SessionRecord): Promise<SessionJournal> {
    const journal = new SessionJournal(this.journalPathOf(record.meta.id), record);
    await journal.prepare();
    return journal;
  }

  /**
   * Saves the record; sets `updatedAt` and `messageCount`; computes the title only once. With
   * `unlessUnchanged`, a record this store saved last exactly as it is now (its save time aside)
   * is not written again (a run's closing save after its last turn's).
   */
  async save(record: SessionRecord, options: { unlessUnchanged?: boolean } = {}): Promise<SessionMeta> {
    const meta: SessionMeta = {
      ...record.meta,
      title:
        record.meta.title && record.meta.title !== "untitled"
          ? record.meta.title
          : titleFromMessages(record.messages),
      updatedAt: SAVE_TIME_SLOT,
      messageCount: record.messages.length,
    };
    const body: Record<string, unknown> = { version: FILE_FORMAT_VERSION, meta, messages: record.messages };
    if (record.agents && Object.keys(record.agents).length > 0) body.agents = record.agents;
    // A kill between writing the snapshot and removing the journal leaves lines it holds: loading skips them.
    if (record.journalSeq !== undefined) body.journalSeq = record.journalSeq;
    // Serialised once with a stand-in for the save time (meta comes first, so the first match is
    // its own): the hash of that text tells an unchanged record.
    const text = sessionFileText(body);
    const hash = createHash("sha256").update(text).digest("base64");
    if (options.unlessUnchanged && this.#saved.get(meta.id) === hash) return record.meta;
    meta.updatedAt = nextSaveTime();
    // Private to the user: a thread can hold anything the model read (keys in a .env included).
    await writeFileAtomic(
      this.pathOf(meta.id),
      text.replace(SAVE_TIME_FIELD, () => `"updatedAt":${JSON.stringify(meta.updatedAt)}`),
      { mode: 0o600 },
    );
    this.#saved.set(meta.id, hash);
    await rm(this.journalPathOf(meta.id), { force: true });
    record.meta = meta;
    return meta;
  }

  /** The snapshot, and the steps its journal holds after it (a run killed mid-turn). */
  async load(id: string): Promise<SessionRecord> {
    const path = this.pathOf(id);
    const journalPath = this.journalPathOf(id);
    const [text, journal] = await Promise.all([readFileIfExists(path), readFileIfExists(journalPath)]);
    const snapshot = text === undefined ? undefined : parseRecord(text, path);
    const record = journal === undefined ? snapshot : replayJournal(snapshot, journal, journalPath);
    if (!record) throw new SessionError("session_not_found", `No session with id ${id} (looked for ${path})`);
    return record;
  }

  /** Every readable session, newest first. Damaged files are left out (see `scan`). */
  async list(): Promise<SessionMeta[]> {
    return (await this.scan()).sessions;
  }

  /**
   * Every session file: the readable sessions and the damaged ones (truncated, not JSON, not a
   * session), each newest first. With `query`, only the sessions whose id starts with it or whose
   * title contains it (any case), and the damaged files whose id starts with it.
   */
  async scan(query?: string): Promise<SessionScan> {
    const all = await this.#readAll();
    return query === undefined ? all : filterScan(all, query);
  }

  async #readAll(): Promise<SessionScan> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { sessions: [], damaged: [] };
      throw error;
    }
    const sessions: SessionMeta[] = [];
    const damaged: DamagedSession[] = [];
    // A session with a journal (in a turn, or killed in one) is listed as the journal leaves it.
    const journaled = new Set<string>();
    for (const name of names) {
      if (!name.endsWith(".jsonl") || name.startsWith(".")) continue;
      const id = name.slice(0, -".jsonl".length);
      try {
        sessions.push((await this.load(id)).meta);
        journaled.add(id);
      } catch (error) {
        getLogger().warn({ id, error: errorMessage(error) }, "cannot read a journaled session");
      }
    }
    for (const name of names) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      if (journaled.has(name.slice(0, -".json".length))) continue;
      const path = join(this.directory, name);
      const read = await readSessionFile(path);
      if ("meta" in read) sessions.push(read.meta);
      else {
        getLogger().warn({ path, error: read.problem }, "damaged session file");
        damaged.push({ id: name.slice(0, -".json".length), path, ...read });
      }
    }
    return {
      sessions: sessions.sort((left, right) => compareText(right.updatedAt, left.updatedAt)),
      damaged: damaged.sort((left, right) => compareText(right.modifiedAt, left.modifiedAt)),
    };
  }

  /** Readable sessions whose id starts with `query` or whose title contains it (case-insensitive). */
  async find(query: string): Promise<SessionMeta[]> {
    return (await this.scan(query)).sessions;
  }

  /**
   * Exactly one readable session matching `query`, or an error: none matches, several do (listed),
   * or the one that matches is a damaged file (named, with what is wrong with it).
   */
  async resolveOne(query: string): Promise<SessionMeta> {
    const resolved = await this.resolveAny(query);
    if (resolved.kind === "session") return resolved.meta;
    const { id, path, problem } = resolved.damaged;
    throw new SessionError(
      "session_damaged",
      `Session ${id} is damaged and cannot be opened: ${path}: ${problem}. Repair the file, or delete it with \`nyz session delete ${id}\`.`,
    );
  }

  /** Exactly one session or damaged session file matching `query` (an exact id first), else an error. */
  async resolveAny(query: string): Promise<ResolvedSession> {
    const all = await this.#readAll();
    const exact = all.sessions.find((meta) => meta.id === query);
    if (exact) return { kind: "session", meta: exact };
    const exactDamaged = all.damaged.find((file) => file.id === query);
    if (exactDamaged) return { kind: "damaged", damaged: exactDamaged };
    const { sessions, damaged } = filterScan(all, query);
    const count = sessions.length + damaged.length;
    if (count === 0) throw new SessionError("session_not_found", `No session matching '${query}'`);
    if (count === 1) {
      return sessions[0] ? { kind: "session", meta: sessions[0] } : { kind: "damaged", damaged: damaged[0]! };
    }
    const lines = [
      ...sessions.map((meta) => `  [${meta.id.slice(0, 8)}] ${meta.title}`),
      ...damaged.map((file) => `  [${file.id.slice(0, 8)}] (damaged) ${file.path}`),
    ];
    throw new SessionError(
      "session_ambiguous",
      `Ambiguous: ${count} sessions match '${query}'. Be more specific.\n${lines.slice(0, 10).join("\n")}`,
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
    if (record.journalSeq !== undefined) body.journalSeq = record.journalSeq;
    await writeFileAtomic(this.pathOf(id), sessionFileText(body), { mode: 0o600 });
    await rm(this.journalPathOf(id), { force: true });
    return record.meta;
  }

  /** Deletes a session; refused while a run holds it (its save would bring it back). */
  async delete(id: string): Promise<void> {
    const release = await this.lock(id);
    try {
      const journal = this.journalPathOf(id);
      const journaled = (await readFileIfExists(journal)) !== undefined;
      await rm(journal, { force: true });
      await rm(this.changesPathOf(id), { recursive: true, force: true });
      await rm(this.pathOf(id), { force: journaled });
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

/** Sessions whose id starts with `query` or whose title contains it (any case); damaged files by id. */
function filterScan(all: SessionScan, query: string): SessionScan {
  const lowered = query.toLowerCase();
  return {
    sessions: all.sessions.filter(
      (meta) => meta.id.startsWith(query) || meta.title.toLowerCase().includes(lowered),
    ),
    damaged: all.damaged.filter((file) => file.id.startsWith(query)),
  };
}

/** A session file's JSON, with every known credential (an API key a tool printed) `[redacted]`. */
function sessionFileText(body: Record<string, unknown>): string {
  return redactKnownSecrets(JSON.stringify(body));
}

function parseRecord(text: string, path: string): SessionRecord {
  const parsed = recordOf(text);
  if ("problem" in parsed) throw new SessionError("session_corrupt", `${path}: ${parsed.problem}`);
  return parsed;
}

/** The session in `text`, or what keeps it from being one. */
function recordOf(text: string): SessionRecord | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `not valid JSON (${errorMessage(error)})` };
  }
  const record = data as Partial<SessionRecord> & { version?: number };
  if (!record || typeof record !== "object" || !record.meta || !Array.isArray(record.messages)) {
    return { problem: "not a nyzhi session file (missing meta or messages)" };
  }
  const result: SessionRecord = { meta: record.meta, messages: record.messages };
  if (record.agents) result.agents = record.agents;
  if (typeof record.journalSeq === "number") result.journalSeq = record.journalSeq;
  return result;
}

/** A session file's record, or what is wrong with it and when it last changed. */
async function readSessionFile(
  path: string,
): Promise<SessionRecord | { problem: string; modifiedAt: string }> {
  let parsed: SessionRecord | { problem: string };
  try {
    parsed = recordOf(await readFile(path, "utf8"));
  } catch (error) {
    parsed = { problem: `cannot be read (${errorMessage(error)})` };
  }
  if (!("problem" in parsed)) return parsed;
  const modified = await stat(path).then(
    (info) => info.mtime,
    () => new Date(0),
  );
  return { problem: parsed.problem, modifiedAt: modified.toISOString() };
}

let lastSaveTime = 0;

/**
 * `updatedAt` for a save: now, but always later than the previous save of this process, so
 * sessions saved within one millisecond still list (and `latest()` picks them) in save order.
 */
/** Stands for the save time while a record is serialised (see `SessionStore.save`). */
const SAVE_TIME_SLOT = "\u0001save-time";
const SAVE_TIME_FIELD = `"updatedAt":${JSON.stringify(SAVE_TIME_SLOT)}`;

function nextSaveTime(): string {
  const now = Date.now();
  lastSaveTime = now > lastSaveTime ? now : lastSaveTime + 1;
  return new Date(lastSaveTime).toISOString();
}
