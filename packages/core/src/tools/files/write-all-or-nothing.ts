import { mkdir, rm, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { getLogger } from "@nyzhi/config";
import type { ToolContext } from "../seam/tool-types.js";
import { writeKeepingMode } from "./file-system.js";

/** A file change computed in memory before anything is written. */
export interface PlannedWrite {
  /** Absolute, already resolved through the path guard. */
  path: string;
  /** Current text; undefined when the file does not exist yet. */
  before: string | undefined;
  /** New text; undefined to delete the file. */
  after: string | undefined;
}

/**
 * Writes every planned change, recording each with the change tracker. If a write fails part way,
 * the files already written are put back, so the caller sees all changes or none.
 */
export async function writeAllOrNothing(
  planned: PlannedWrite[],
  context: ToolContext,
  tool: string,
): Promise<void> {
  const done: PlannedWrite[] = [];
  try {
    for (const write of planned) {
      await context.changes.beforeChange(write.path, tool);
      try {
        if (write.after === undefined) {
          await unlink(write.path);
        } else {
          await mkdir(dirname(write.path), { recursive: true });
          await writeKeepingMode(write.path, write.after);
        }
        done.push(write);
      } finally {
        await context.changes.afterChange(write.path, tool);
      }
    }
  } catch (error) {
    for (const write of done.reverse()) {
      await context.changes.beforeChange(write.path, tool);
      try {
        if (write.before === undefined) await rm(write.path, { force: true });
        else await writeKeepingMode(write.path, write.before);
      } catch (rollbackError) {
        getLogger().error({ path: write.path, error: String(rollbackError) }, "rollback of a file failed");
      } finally {
        await context.changes.afterChange(write.path, tool);
      }
    }
    throw error;
  }
}
