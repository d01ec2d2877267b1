import { indexProcessCommand } from "../commands/index-process-command.js";

/**
 * The entry of `dist/index-process.cjs`: `nyz __index-process` runs this bundle (just
 * @nyzhi/index and what it needs) instead of the bundle of every command, so the app's code index
 * child parses and holds only the index's code.
 */
export async function main(_args: readonly string[]): Promise<number> {
  return indexProcessCommand();
}
