import { fileURLToPath } from "node:url";

/**
 * How a session's code index child is started: `nyz __index-process` (the bin beside this bundle,
 * on this Node). The app and headless runs both use it, so LanceDB and the chunker stay out of
 * their memory and off their event loop.
 */
export function indexProcessCommand(options: { background?: boolean } = {}): {
  command: string;
  args: string[];
} {
  // `--background` (the app's): the child lowers its CPU priority below the app's, whose keys come
  // first (bin/index-process-main.ts). A headless run waits on its index, at its own priority.
  const background = options.background ? ["--background"] : [];
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL("./nyz.cjs", import.meta.url)), "__index-process", ...background],
  };
}
