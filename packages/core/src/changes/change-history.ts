import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, getLogger, writeFileAtomic } from "@nyzhi/config";
import type { TrackedChange } from "./tracked-change.js";

/**
 * One line of a session's change history: a new turn group, a recorded change (its sides named
 * by the sha256 of their bytes, kept once in `blobs/`; null for a file that did not exist), or the
 * undo of the newest turn that changed anything.
 */
export type ChangeHistoryEntry =
  | { kind: "checkpoint"; turnId: string }
  | {
      kind: "change";
      turnId: string;
      path: string;
      tool: string;
      timestamp: number;
      before: string | null;
      after: string | null;
      undoable: boolean;
      reason?: string;
    }
  | { kind: "undone"; turnId: string };

/** What the tracker hands to its history; the history keeps the order. */
export interface ChangeHistorySink {
  checkpoint(turnId: string): void;
  change(change: TrackedChange): Promise<void>;
  undone(turnId: string): void;
  flush(): Promise<void>;
}

/**
 * A session's file changes kept on disk beside the session (`<sessions>/<id>.changes/`), so
 * `/changes`, `/diff` and `/undo` still know them after `nyz -c`: `changes.jsonl` lists what
 * happened in order, `blobs/<sha256>` holds each file content once. Only the process holding the
 * session's lock writes it; entries are appended in order, one write at a time. A damaged line is
 * skipped (and logged); a change whose content is missing can no longer be undone and says why.
 */
export class ChangeHistory implements ChangeHistorySink {
  readonly #journal: string;
  readonly #blobs: string;
  #queue: Promise<void> = Promise.resolve();
  #failed = false;

  constructor(readonly directory: string) {
    this.#journal = join(directory, "changes.jsonl");
    this.#blobs = join(directory, "blobs");
  }

  checkpoint(turnId: string): void {
    void this.#enqueue(async () => this.#append({ kind: "checkpoint", turnId }));
  }

  change(change: TrackedChange): Promise<void> {
    return this.#enqueue(async () => {
      const before = change.before === undefined ? null : await this.#keep(change.before);
      const after = change.after === undefined ? null : await this.#keep(change.after);
      const entry: ChangeHistoryEntry = {
        kind: "change",
        turnId: change.turnId,
        path: change.path,
        tool: change.tool,
        timestamp: change.timestamp,
        before,
        after,
        undoable: change.undoable,
        ...(change.reason !== undefined ? { reason: change.reason } : {}),
      };
      await this.#append(entry);
    });
  }

  undone(turnId: string): void {
    void this.#enqueue(async () => this.#append({ kind: "undone", turnId }));
  }

  /** Waits for every entry handed over so far to be written. */
  flush(): Promise<void> {
    return this.#queue;
  }

  /** The history as written, oldest first, each change's contents read back. */
  async load(): Promise<LoadedHistoryEntry[]> {
    let text: string;
    try {
      text = await readFile(this.#journal, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const entries: LoadedHistoryEntry[] = [];
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      const entry = parseEntry(line);
      if (!entry) {
        getLogger().warn({ path: this.#journal, line: index + 1 }, "skipped a damaged change-history line");
        continue;
      }
      if (entry.kind !== "change") {
        entries.push(entry);
        continue;
      }
      const before = entry.before === null ? undefined : await this.#read(entry.before);
      const after = entry.after === null ? undefined : await this.#read(entry.after);
      const missing = before === "missing" || after === "missing";
      const change: TrackedChange = {
        path: entry.path,
        tool: entry.tool,
        turnId: entry.turnId,
        timestamp: entry.timestamp,
        before: before === "missing" ? undefined : before,
        after: after === "missing" ? undefined : after,
        undoable: entry.undoable && !missing,
      };
      if (missing) change.reason = `its saved copy in ${this.#blobs} is missing`;
      else if (entry.reason !== undefined) change.reason = entry.reason;
      entries.push({ kind: "change", change });
    }
    return entries;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(work).catch((error: unknown) => {
      // The session goes on; only its history after a restart is incomplete. Said once.
      if (!this.#failed)
        getLogger().warn(
          { error: errorMessage(error), path: this.directory },
          "could not save a file change",
        );
      this.#failed = true;
    });
    this.#queue = next;
    return next;
  }

  async #append(entry: ChangeHistoryEntry): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await appendFile(this.#journal, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /** Stores `bytes` under their hash (once) and returns the hash. */
  async #keep(bytes: Uint8Array): Promise<string> {
    const hash = createHash("sha256").update(bytes).digest("hex");
    const path = join(this.#blobs, hash);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) await writeFileAtomic(path, bytes, { mode: 0o600, fsync: false });
    return hash;
  }

  async #read(hash: string): Promise<Uint8Array | "missing"> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return "missing";
    try {
      return new Uint8Array(await readFile(join(this.#blobs, hash)));
    } catch {
      return "missing";
    }
  }
}

/** A history entry as loaded: changes carry their contents. */
export type LoadedHistoryEntry =
  | { kind: "checkpoint"; turnId: string }
  | { kind: "change"; change: TrackedChange }
  | { kind: "undone"; turnId: string };

function parseEntry(line: string): ChangeHistoryEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const entry = value as Record<string, unknown>;
  if (typeof entry.turnId !== "string") return undefined;
  if (entry.kind === "checkpoint" || entry.kind === "undone")
    return { kind: entry.kind, turnId: entry.turnId };
  if (entry.kind !== "change") return undefined;
  const side = (side: unknown) => side === null || typeof side === "string";
  if (
    typeof entry.path !== "string" ||
    typeof entry.tool !== "string" ||
    typeof entry.timestamp !== "number" ||
    typeof entry.undoable !== "boolean" ||
    !side(entry.before) ||
    !side(entry.after)
  )
    return undefined;
  return entry as ChangeHistoryEntry;
}

/**
 * Gives `tracker` the changes earlier runs of the session kept in `directory` and keeps the ones
 * to come there. A history that cannot be read is logged and the session starts without it.
 */
export async function resumeChangeHistory(
  tracker: { resume(entries: readonly LoadedHistoryEntry[], history: ChangeHistorySink): void },
  directory: string,
): Promise<void> {
  const history = new ChangeHistory(directory);
  const entries = await history.load().catch((error: unknown) => {
    getLogger().warn(
      { error: errorMessage(error), path: directory },
      "could not read the session's file changes",
    );
    return [];
  });
  tracker.resume(entries, history);
}
