import { fileURLToPath } from "node:url";

/**
 * How a session's code index child is started: `nyz __index-process` (the bin beside this bundle,
 * on this Node). The app and headless runs both use it, so LanceDB and the chunker stay out of
 * their memory and off their event loop.
 */
export function indexProcessCommand(): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL("./nyz.cjs", import.meta.url)), "__index-process"],
  };
}
