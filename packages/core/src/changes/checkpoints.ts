import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { errorMessage } from "@nyzhi/config";
import type { FileChange } from "../tools/seam/tool-types.js";

/** The changes one turn made, in the order they happened. */
export interface TurnCheckpoint<Change extends UndoableChange = UndoableChange> {
  turnId: string;
  changes: Change[];
}

export interface UndoableChange extends FileChange {
  /** False when the original content was not kept (too large, unreadable). */
  undoable: boolean;
  reason?: string;
}

/** What undoing a file did: put old content back, removed a file the turn created, or re-created one it deleted. */
export type UndoAction = "restored" | "removed" | "recreated";

export interface UndoReport {
  turnId: string;
  /** Files put back, in the order the turn first touched them. */
  restored: { path: string; action: UndoAction }[];
  /** Files that could not be put back, with the reason. */
  failed: { path: string; reason: string }[];
}

/**
 * Puts every file the turn touched back to its state before the turn's first change to it.
 * Files whose original was not kept are reported in `failed`; the rest are restored regardless.
 */
export async function undoCheckpoint(checkpoint: TurnCheckpoint): Promise<UndoReport> {
  const report: UndoReport = { turnId: checkpoint.turnId, restored: [], failed: [] };
  const firstChanges = new Map<string, UndoableChange>();
  const lastChanges = new Map<string, UndoableChange>();
  for (const change of checkpoint.changes) {
    if (!firstChanges.has(change.path)) firstChanges.set(change.path, change);
    lastChanges.set(change.path, change);
  }
  // Removals first, so a file moved onto a path that the turn also vacated is handled in order.
  const ordered = [...firstChanges.values()].sort(
    (left, right) => Number(left.before !== undefined) - Number(right.before !== undefined),
  );
  for (const first of ordered) {
    if (!first.undoable) {
      report.failed.push({ path: first.path, reason: first.reason ?? "its original content was not kept" });
      continue;
    }
    try {
      report.restored.push({
        path: first.path,
        action: await restoreOne(first, lastChanges.get(first.path)!),
      });
    } catch (error) {
      report.failed.push({ path: first.path, reason: errorMessage(error) });
    }
  }
  const order = [...firstChanges.keys()];
  report.restored.sort((left, right) => order.indexOf(left.path) - order.indexOf(right.path));
  return report;
}

async function restoreOne(first: UndoableChange, last: UndoableChange): Promise<UndoAction> {
  if (first.before === undefined) {
    await rm(first.path, { force: true });
    return "removed";
  }
  await mkdir(dirname(first.path), { recursive: true });
  await writeFile(first.path, first.before);
  return last.after === undefined && last.undoable ? "recreated" : "restored";
}

/** One line per file, for `/undo` output: `restored src/a.ts`. */
export function formatUndoReport(
  report: UndoReport,
  displayPath: (path: string) => string = (p) => p,
): string {
  const lines = report.restored.map((entry) => `${entry.action} ${displayPath(entry.path)}`);
  for (const failure of report.failed)
    lines.push(`could not undo ${displayPath(failure.path)}: ${failure.reason}`);
  return lines.length > 0 ? lines.join("\n") : "Nothing to undo.";
}
