/**
 * Ends the process once a command has finished and nothing is left to run but stdio.
 *
 * Left to itself, Node's exit first disposes of the whole V8 heap, a few milliseconds of page
 * unmapping for the ~80 MB an exec run holds, which `process.exit` skips. It only does so when
 * the event loop has nothing else: every live handle is one of the process's own stdin, stdout or
 * stderr (fd 0–2; a child process's pipes or a socket are other handles), no request is in flight
 * (a write still queued on a full pipe, a file operation) and no timer is pending; otherwise the
 * ordinary exit waits for them. The check runs after a `setImmediate`, so promise callbacks queued
 * by the command run first. Not visible to the check, and not used by nyz once a command has
 * finished: thread-pool jobs with no handle or request (an async `zlib.gzip`, `crypto.scrypt`).
 */
export function exitWhenIdle(code: number, probe: IdleProbe = processProbe): void {
  process.exitCode = code;
  setImmediate(() => {
    if (onlyStdioLeft(probe)) probe.exit(code);
  });
}

export interface IdleProbe {
  exit(code: number): void;
  /** Names of what keeps the event loop alive (`process.getActiveResourcesInfo()`). */
  resources(): string[];
  /** The live handles themselves. */
  handles(): unknown[];
  /** Requests in flight. */
  requests(): unknown[];
}

const processProbe: IdleProbe = {
  exit: (code) => process.exit(code),
  resources: () => process.getActiveResourcesInfo(),
  handles: () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles(),
  requests: () => (process as unknown as { _getActiveRequests(): unknown[] })._getActiveRequests(),
};

/** Whether only the process's own stdio streams are left (see exitWhenIdle). */
export function onlyStdioLeft(probe: Omit<IdleProbe, "exit">): boolean {
  return (
    probe.requests().length === 0 &&
    probe.resources().every((resource) => resource === "PipeWrap" || resource === "TTYWrap") &&
    probe.handles().every(isStdio)
  );
}

function isStdio(handle: unknown): boolean {
  const stream = handle as { fd?: unknown; _handle?: { fd?: unknown } | null };
  const fd = stream.fd ?? stream._handle?.fd;
  return fd === 0 || fd === 1 || fd === 2;
}
