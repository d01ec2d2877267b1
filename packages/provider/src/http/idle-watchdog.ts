/** What the watchdog reads of a request: the bytes its socket has moved, and how to end it. */
export interface WatchedRequest {
  readonly socket?: { readonly bytesRead: number; readonly bytesWritten: number } | null | undefined;
  destroy(error: Error): void;
}

/**
 * Ends `request` once no byte has moved either way for `idleMs`; returns the function that stops
 * watching (call it when the response has ended or failed).
 *
 * It replaces the socket timeout (`request.setTimeout`), which re-arms a timer on every read and
 * write of the socket: two timer-list operations per chunk, on every request of a session. This
 * one timer looks at the socket's byte counts every fifth of `idleMs` instead, so a connection
 * that went quiet is ended between `idleMs` and `1.2 × idleMs` after its last byte.
 */
export function watchIdle(request: WatchedRequest, idleMs: number, message: string): () => void {
  const step = Math.max(1, Math.floor(idleMs / 5));
  let moved = -1;
  let quietSince = Date.now();
  const timer = setTimeout(function check() {
    const socket = request.socket;
    const now = socket ? socket.bytesRead + socket.bytesWritten : 0;
    if (now !== moved) {
      moved = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= idleMs) {
      request.destroy(new Error(message));
      return;
    }
    timer.refresh();
  }, step);
  timer.unref();
  return () => clearTimeout(timer);
}
