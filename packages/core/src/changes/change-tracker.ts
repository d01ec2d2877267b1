import { lstat, readFile } from "node:fs/promises";
import type { ChangeRecorder, FileChange } from "../tools/seam/tool-types.js";
import { type TurnCheckpoint, type UndoReport, undoCheckpoint } from "./checkpoints.js";

/** Binary files larger than this (bytes) are not snapshotted, so their changes cannot be undone. */
export const DEFAULT_MAX_BINARY_SNAPSHOT_BYTES = 10 * 1024 * 1024;
/** Text files larger than this (bytes) are not snapshotted either. */
export const DEFAULT_MAX_TEXT_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/** Id of the group that holds changes recorded before the first `checkpoint()`. */
export const INITIAL_TURN_ID = "initial";

/** One recorded change, with enough detail to undo it (or to say why it cannot be undone). */
export interface TrackedChange extends FileChange {
  turnId: string;
  /** Epoch ms when `afterChange` was called. */
  timestamp: number;
  /** 1, 2, … in the order the changes were recorded (compare with `mark()`). */
  sequence: number;
  /** False when a side was too large (or unreadable) to snapshot; `before`/`after` are then unset. */
  undoable: boolean;
  /** Why the change cannot be undone, when `undoable` is false. */
  reason?: string;
}

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
  /** How many changes were recorded so far (the last one's `sequence`). */
  #recorded = 0;

  constructor(options: ChangeTrackerOptions = {}) {
    this.#maxBinary = options.maxBinarySnapshotBytes ?? DEFAULT_MAX_BINARY_SNAPSHOT_BYTES;
    this.#maxText = options.maxTextSnapshotBytes ?? DEFAULT_MAX_TEXT_SNAPSHOT_BYTES;
  }

  /** Starts a new group: every change recorded from now on belongs to `turnId`. */
  checkpoint(turnId: string): void {
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
    while (this.#turns.length > 0) {
      const turn = this.#turns.at(-1)!;
      if (turn.changes.length === 0) {
        if (this.#turns.length === 1) return undefined;
        this.#turns.pop();
        continue;
      }
      const report = await undoCheckpoint(turn);
      turn.changes = [];
      if (this.#turns.length > 1) this.#turns.pop();
      return report;
    }
    return undefined;
  }

  /**
   * A point in the record: the changes recorded after it are `changesSince(mark)` (a rewind to an
   * earlier prompt undoes them).
   */
  mark(): number {
    return this.#recorded;
  }

  /** Changes recorded after `mark` that are still recorded (not undone), oldest first. */
  changesSince(mark: number): TrackedChange[] {
    return this.changes().filter((change) => change.sequence > mark);
  }

  /**
   * Restores the files changed after `mark` to their state at `mark` and forgets those changes;
   * undefined when there were none.
   */
  async undoSince(mark: number): Promise<UndoReport | undefined> {
    const later = this.changesSince(mark);
    if (later.length === 0) return undefined;
    const report = await undoCheckpoint({ turnId: later[0]!.turnId, changes: later });
    for (const turn of this.#turns) turn.changes = turn.changes.filter((change) => change.sequence <= mark);
    while (this.#turns.length > 1 && this.#turns.at(-1)!.changes.length === 0) this.#turns.pop();
    return report;
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
