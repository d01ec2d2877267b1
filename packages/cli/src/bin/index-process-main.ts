import { setPriority } from "node:os";
import { indexProcessCommand } from "../commands/index-process-command.js";

/** The niceness the app's index child takes (`--background`): 10, below the app it serves. */
export const BACKGROUND_NICENESS = 10;

/**
 * The entry of `dist/index-process.cjs`: `nyz __index-process` runs this bundle (just
 * @nyzhi/index and what it needs) instead of the bundle of every command, so the app's code index
 * child parses and holds only the index's code. With `--background` (the app's child) it lowers its
 * own CPU priority first: building or loading the index while the person types never takes the
 * CPU from the app's echo on a busy machine.
 */
export async function main(args: readonly string[]): Promise<number> {
  if (args.includes("--background")) {
    try {
      setPriority(BACKGROUND_NICENESS);
    } catch {
      // A system that refuses a lower priority: the index runs at the app's, as before.
    }
  }
  return indexProcessCommand();
}
