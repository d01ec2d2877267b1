import { serveIndexProcess } from "@nyzhi/index";
import { ExitCode } from "../io/exit-codes.js";

/** How long the process may take to end by itself once it has served, ms. */
const EXIT_GRACE_MS = 1000;

/**
 * `nyz __index-process` (hidden): the child process that holds an app session's code index
 * (`openIndexProcess` in @nyzhi/index starts it with an IPC channel), so LanceDB and the chunker
 * stay out of the app's memory and off its event loop. Serves until the session closes the index
 * or goes away (the channel closes), then ends.
 */
export async function indexProcessCommand(): Promise<number> {
  // Ctrl+C and a closed terminal are the app's to handle; this process ends when the app closes
  // the index or its channel closes, so an update in progress stops cleanly (its lock released).
  for (const signal of ["SIGINT", "SIGHUP"] as const) process.on(signal, () => undefined);
  await serveIndexProcess();
  // Something left behind (a native addon's handle) must not keep the process alive.
  setTimeout(() => process.exit(ExitCode.success), EXIT_GRACE_MS).unref();
  return ExitCode.success;
}
