import type { FileChange } from "../tools/seam/tool-types.js";

/** One recorded change, with enough detail to undo it (or to say why it cannot be undone). */
export interface TrackedChange extends FileChange {
  turnId: string;
  /** Epoch ms when `afterChange` was called. */
  timestamp: number;
  /**
   * 1, 2, … in the order this run recorded the changes (compare with `ChangeTracker.mark()`);
   * absent for changes of an earlier run, which come before every mark.
   */
  sequence?: number;
  /** False when a side was too large (or unreadable) to snapshot; `before`/`after` are then unset. */
  undoable: boolean;
  /** Why the change cannot be undone, when `undoable` is false. */
  reason?: string;
}
