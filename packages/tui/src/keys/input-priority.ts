/**
 * Input first: what the user types is drawn before anything that moves on its own.
 *
 * Each frame costs ink several milliseconds of layout and output for the whole screen (~4 ms for
 * eight working subagents on a 100×30 terminal, more on a loaded machine), and a key that arrives
 * while a background frame (a spinner, the agents panel) is being drawn waits for it before its
 * own frame starts. So while keys arrive, background updates that fall due wait for the next key
 * and are drawn right after that key's frame (see `afterNextKeyFrame`), in the quiet time before
 * the key after it, instead of at a random moment that a key may hit.
 *
 * `useKeypress` reports every key here (`noteKeypress`); the shared refresh clock
 * (`tools/refresh-clock.ts`) listens, and defers its ticks.
 */
const keyListeners = new Set<() => void>();
let waiting: (() => void)[] = [];

/**
 * A key was pressed (called before its handlers run). Listeners hear of it at once; callbacks
 * waiting for a key frame run after this key's frame is written: the frame is drawn in the
 * microtasks that follow the input event (see keys/immediate-frame.ts), `setImmediate` after them.
 */
export function noteKeypress(): void {
  for (const listener of keyListeners) listener();
  if (waiting.length === 0) return;
  const callbacks = waiting;
  waiting = [];
  setImmediate(() => {
    for (const callback of callbacks) callback();
  });
}

/** Calls `listener` on each key press; returns the unsubscribe. */
export function subscribeKeypress(listener: () => void): () => void {
  keyListeners.add(listener);
  return () => {
    keyListeners.delete(listener);
  };
}

/** Runs `callback` once, right after the frame of the next key press is drawn. Returns a cancel. */
export function afterNextKeyFrame(callback: () => void): () => void {
  let cancelled = false;
  const entry = () => {
    if (!cancelled) callback();
  };
  waiting.push(entry);
  return () => {
    cancelled = true;
    waiting = waiting.filter((other) => other !== entry);
  };
}
