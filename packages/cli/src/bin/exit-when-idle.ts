/**
 * Ends the process once a command has finished and nothing is left to run but stdio.
 *
 * Left to itself, Node's exit first disposes of the whole V8 heap, a few milliseconds of page
 * unmapping for the ~90 MB an exec run holds, which `process.exit` skips. It only does so when
 * the event loop has nothing else: a pending write (a `WriteWrap` on a full pipe), a timer, a
 * socket, a child process or a file operation all keep the ordinary exit, which waits for them.
 * The check runs after a `setImmediate`, so promise callbacks queued by the command run first.
 */
export function exitWhenIdle(
  code: number,
  probe: { exit: (code: number) => void; activeResources: () => string[] } = {
    exit: (exitCode) => process.exit(exitCode),
    activeResources: () => process.getActiveResourcesInfo(),
  },
): void {
  process.exitCode = code;
  setImmediate(() => {
    if (onlyStdioLeft(probe.activeResources())) probe.exit(code);
  });
}

/** Whether the active resources are stdio streams only (pipes or terminals, nothing in flight). */
export function onlyStdioLeft(resources: readonly string[]): boolean {
  return resources.every((resource) => resource === "PipeWrap" || resource === "TTYWrap");
}
