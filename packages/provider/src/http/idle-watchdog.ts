/** What the watchdog reads of a request: the bytes its socket has moved, and how to end it. */
export interface WatchedRequest {
  readonly socket?: { readonly bytesRead: number; readonly bytesWritten: number } | null | undefined;
  destroy(error: Error): void;
}

interface Watch {
  request: WatchedRequest;
  idleMs: number;
  message: string;
  moved: number;
  quietSince: number;
}

/** One timer for every watched request of the process, per check interval. */
const watches = new Map<number, { entries: Set<Watch>; timer: NodeJS.Timeout }>();

/**
 * Ends `request` once no byte has moved either way for `idleMs`; returns the function that stops
 * watching (call it when the response has ended or failed).
 *
 * It replaces the socket timeout (`request.setTimeout`), which re-arms a timer on every read and
 * write of the socket: two timer-list operations per chunk, on every request of a session. Here
 * one unreferenced interval per `idleMs` looks at the byte counts of all the requests in flight
 * every fifth of `idleMs`, so a connection that went quiet is ended between `idleMs` and
 * `1.2 × idleMs` after its last byte, and a request costs no timer of its own.
 */
export function watchIdle(request: WatchedRequest, idleMs: number, message: string): () => void {
  const watch: Watch = { request, idleMs, message, moved: bytesMoved(request), quietSince: Date.now() };
  let group = watches.get(idleMs);
  if (!group) {
    const entries = new Set<Watch>();
    const timer = setInterval(() => check(idleMs, entries), Math.max(1, Math.floor(idleMs / 5)));
    timer.unref();
    group = { entries, timer };
    watches.set(idleMs, group);
  }
  group.entries.add(watch);
  const entries = group.entries;
  return () => {
    if (entries.delete(watch) && entries.size === 0 && watches.get(idleMs)?.entries === entries)
      stopGroup(idleMs);
  };
}

function check(idleMs: number, entries: Set<Watch>): void {
  const now = Date.now();
  for (const watch of entries) {
    const moved = bytesMoved(watch.request);
    if (moved !== watch.moved) {
      watch.moved = moved;
      watch.quietSince = now;
    } else if (now - watch.quietSince >= watch.idleMs) {
      entries.delete(watch);
      watch.request.destroy(new Error(watch.message));
    }
  }
  if (entries.size === 0) stopGroup(idleMs);
}

function stopGroup(idleMs: number): void {
  const group = watches.get(idleMs);
  if (!group) return;
  clearInterval(group.timer);
  watches.delete(idleMs);
}

function bytesMoved(request: WatchedRequest): number {
  const socket = request.socket;
  return socket ? socket.bytesRead + socket.bytesWritten : 0;
}
