import { lstat, readFile } from "node:fs/promises";
import type { ChangeRecorder } from "../tools/seam/tool-types.js";
import type { ChangeHistorySink, LoadedHistoryEntry } from "./change-history.js";
import { type TurnCheckpoint, type UndoReport, undoCheckpoint } from "./checkpoints.js";
import type { TrackedChange } from "./tracked-change.js";

export type { TrackedChange } from "./tracked-change.js";

/** Binary files larger than this (bytes) are not snapshotted, so their changes cannot be undone. */
export const DEFAULT_MAX_BINARY_SNAPSHOT_BYTES = 10 * 1024 * 1024;
/** Text files larger than this (bytes) are not snapshotted either. */
export const DEFAULT_MAX_TEXT_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/** Id of the group that holds changes recorded before the first `checkpoint()`. */
export const INITIAL_TURN_ID = "initial";

export interface ChangeTrackerOptions {
  maxBinarySnapshotBytes?: number;
  maxTextSnapshotBytes?: number;
}

type Snapshot =
  | { kind: "absent" }
  | { kind: "content"; bytes: Uint8Array }
  | { kind: "skipped"; reason: string };

/**
 * Records every file change tools make, grouped per turn, so `/undo` can restore the files of the
 * last turn. Shared by an agent and its subagents (one tracker per session), so children's edits
 * are undone with the turn that spawned them.
 */
export class ChangeTracker implements ChangeRecorder {
  readonly #maxBinary: number;
  readonly #maxText: number;
  readonly #turns: TurnCheckpoint<TrackedChange>[] = [{ turnId: INITIAL_TURN_ID, changes: [] }];
  /** Snapshots taken by `beforeChange`, waiting for their `afterChange`, keyed by path. */
  readonly #pending = new Map<string, Snapshot>();
  readonly #listeners = new Set<(path: string) => void>();
  #history: ChangeHistorySink | undefined;
  /** How many changes this run recorded so far (the last one's `sequence`). */
  #recorded = 0;

  constructor(options: ChangeTrackerOptions = {}) {
    this.#maxBinary = options.maxBinarySnapshotBytes ?? DEFAULT_MAX_BINARY_SNAPSHOT_BYTES;
    this.#maxText = options.maxTextSnapshotBytes ?? DEFAULT_MAX_TEXT_SNAPSHOT_BYTES;
  }

  /** Starts a new group: every change recorded from now on belongs to `turnId`. */
  checkpoint(turnId: string): void {
    this.#startTurn(turnId);
    this.#history?.checkpoint(turnId);
  }

  /**
   * Takes back the changes of an earlier run of this session (its saved history), then hands every
   * later checkpoint, change and undo to `history`, so the next run can take them back in turn.
   */
  resume(entries: readonly LoadedHistoryEntry[], history: ChangeHistorySink | undefined): void {
    for (const entry of entries) {
      if (entry.kind === "checkpoint") this.#startTurn(entry.turnId);
      else if (entry.kind === "undone") this.#takeLastTurn();
      else this.#turns.at(-1)!.changes.push({ ...entry.change, turnId: this.#turns.at(-1)!.turnId });
    }
    this.#history = history;
  }

  #startTurn(turnId: string): void {
    const current = this.#turns.at(-1);
    if (current && current.changes.length === 0 && current.turnId !== INITIAL_TURN_ID) {
      current.turnId = turnId;
      return;
    }
    this.#turns.push({ turnId, changes: [] });
  }

  async beforeChange(path: string, _tool: string): Promise<void> {
    // A path already pending keeps its first snapshot (a tool may call this twice for one write).
    if (this.#pending.has(path)) return;
    this.#pending.set(path, await this.#snapshot(path));
  }

  async afterChange(path: string, tool: string): Promise<void> {
    const before = this.#pending.get(path) ?? {
      kind: "skipped",
      reason: "no snapshot was taken before the change",
    };
    this.#pending.delete(path);
    const after = await this.#snapshot(path);
    if (before.kind === "absent" && after.kind === "absent") return;
    if (before.kind === "content" && after.kind === "content" && sameBytes(before.bytes, after.bytes)) return;
    const current = this.#turns.at(-1)!;
    const change: TrackedChange = {
      path,
      tool,
      turnId: current.turnId,
      timestamp: Date.now(),
      sequence: ++this.#recorded,
      before: before.kind === "content" ? before.bytes : undefined,
      after: after.kind === "content" ? after.bytes : undefined,
      undoable: before.kind !== "skipped",
    };
    if (before.kind === "skipped") change.reason = before.reason;
    current.changes.push(change);
    await this.#history?.change(change);
    for (const listener of this.#listeners) listener(path);
  }

  /**
   * Calls `listener` with the absolute path of each change recorded from now on (the session's
   * code index re-indexes it). Returns a function that stops it.
   */
  onChange(listener: (path: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every change recorded, oldest first. */
  changes(): TrackedChange[] {
    return this.#turns.flatMap((turn) => turn.changes);
  }

  /** Absolute paths of all changed files, sorted and de-duplicated (for briefings and `/changes`). */
  changedFiles(): string[] {
    return [...new Set(this.changes().map((change) => change.path))].sort();
  }

  /** Turns that recorded at least one change, oldest first. */
  turns(): readonly TurnCheckpoint<TrackedChange>[] {
    return this.#turns.filter((turn) => turn.changes.length > 0);
  }

  /**
   * Restores the files changed in the latest turn that changed any: modified files get their old
   * content, created files are removed, deleted files come back (so a move is undone too).
   * Returns undefined when there is nothing to undo.
   */
  async undoLastTurn(): Promise<UndoReport | undefined> {
    const turn = this.#takeLastTurn();
    if (!turn) return undefined;
    this.#history?.undone(turn.turnId);
    return await undoCheckpoint(turn);
  }

  /** Removes the latest turn that changed any file from the record and returns it. */
  #takeLastTurn(): TurnCheckpoint<TrackedChange> | undefined {
    while (this.#turns.length > 0) {
      const turn = this.#turns.at(-1)!;
      if (turn.changes.length === 0) {
        if (this.#turns.length === 1) return undefined;
        this.#turns.pop();
        continue;
      }
      const taken = { turnId: turn.turnId, changes: turn.changes };
      turn.changes = [];
      if (this.#turns.length > 1) this.#turns.pop();
      return taken;
    }
    return undefined;
  }

  /**
   * A point in the record: the turns whose changes all came after it are `changesSince(mark)` (a
   * rewind to an earlier prompt undoes them).
   */
  mark(): number {
    return this.#recorded;
  }

  /** The changes of the turns recorded after `mark` (whole turns, as `/undo` takes them), oldest first. */
  changesSince(mark: number): TrackedChange[] {
    const turns = this.turns();
    let first = turns.length;
    while (first > 0 && (turns[first - 1]!.changes[0]!.sequence ?? 0) > mark) first -= 1;
    return turns.slice(first).flatMap((turn) => turn.changes);
  }

  /**
   * Undoes the turns recorded after `mark`, newest first, as `/undo` would one by one (the
   * session's history records each), restoring the files to their state at `mark`. Undefined when
   * there were none.
   */
  async undoSince(mark: number): Promise<UndoReport | undefined> {
    const taken: TrackedChange[] = [];
    for (;;) {
      const last = this.turns().at(-1);
      if (!last || (last.changes[0]!.sequence ?? 0) <= mark) break;
      const turn = this.#takeLastTurn()!;
      this.#history?.undone(turn.turnId);
      taken.unshift(...turn.changes);
    }
    if (taken.length === 0) return undefined;
    return await undoCheckpoint({ turnId: taken[0]!.turnId, changes: taken });
  }

  /** Waits until the session's history on disk holds every change recorded so far. */
  async flush(): Promise<void> {
    await this.#history?.flush();
  }

  /** Undoes every recorded turn, newest first. */
  async undoAll(): Promise<UndoReport[]> {
    const reports: UndoReport[] = [];
    for (;;) {
      const report = await this.undoLastTurn();
      if (!report) return reports;
      reports.push(report);
    }
  }

  async #snapshot(path: string): Promise<Snapshot> {
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(path);
    } catch (error) {
      if (isNotFound(error)) return { kind: "absent" };
      return { kind: "skipped", reason: `could not read the file (${String(error)})` };
    }
    if (stats.isDirectory()) return { kind: "skipped", reason: "it is a directory" };
    if (!stats.isFile()) return { kind: "skipped", reason: "it is not a regular file" };
    if (stats.size > this.#maxText) {
      return { kind: "skipped", reason: `it is larger than ${this.#maxText} bytes` };
    }
    const bytes = new Uint8Array(await readFile(path));
    if (bytes.byteLength > this.#maxBinary && looksBinary(bytes)) {
      return { kind: "skipped", reason: `it is a binary file larger than ${this.#maxBinary} bytes` };
    }
    return { kind: "content", bytes };
  }
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(right);
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
