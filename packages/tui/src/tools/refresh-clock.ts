import { useCallback, useRef, useSyncExternalStore } from "react";
import { afterNextKeyFrame, subscribeKeypress } from "../keys/input-priority.js";

/**
 * How often what moves on its own changes (ms): spinners, running times and the agents panel's
 * rows all step on one clock, so they change in the same frame (ten frames a second), not each in
 * a frame of its own.
 */
export const REFRESH_MS = 100;

export interface RefreshClock {
  /** Ticks since the clock was made. */
  readonly tick: number;
  /** Calls `listener` on every tick; the clock runs while it has listeners. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * While keys come less than this far apart (ms), the user is typing: ticks wait for the keys (see
 * `createRefreshClock`).
 */
export const TYPING_GAP_MS = 250;

/**
 * One timer for everything that moves: every `intervalMs` the tick advances and every listener
 * hears of it in the same task, so React renders them in one pass and ink draws one frame.
 *
 * Input first (keys/input-priority.ts): while the user types (keys less than `TYPING_GAP_MS`
 * apart), a tick that falls due waits for the next key and comes right after that key's frame,
 * in the quiet time before the key after it, instead of at a moment a key may hit. So while the
 * user types, what moves changes once per key (at most once per interval); when the keys stop,
 * the intervals tick again, the first at most `TYPING_GAP_MS` + `intervalMs` after the last key.
 */
export function createRefreshClock(options: { intervalMs?: number } = {}): RefreshClock {
  const intervalMs = options.intervalMs ?? REFRESH_MS;
  const listeners = new Set<() => void>();
  let tick = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopKeys: (() => void) | undefined;
  /** When the last key was pressed (ms since epoch). */
  let lastKeyAt = Number.NEGATIVE_INFINITY;
  /** A tick fell due while the user typed: it comes after the next key's frame. */
  let owed = false;
  /** Cancels the owed tick's wait for a key frame. */
  let cancelWait: (() => void) | undefined;

  const advance = () => {
    owed = false;
    cancelWait?.();
    cancelWait = undefined;
    tick += 1;
    for (const listener of [...listeners]) listener();
  };
  const onInterval = () => {
    if (Date.now() - lastKeyAt < TYPING_GAP_MS) owed = true;
    else advance();
  };
  const onKey = () => {
    lastKeyAt = Date.now();
    if (owed && cancelWait === undefined) cancelWait = afterNextKeyFrame(advance);
  };
  const start = () => {
    timer = setInterval(onInterval, intervalMs);
    stopKeys = subscribeKeypress(onKey);
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    stopKeys?.();
    stopKeys = undefined;
    cancelWait?.();
    cancelWait = undefined;
    owed = false;
  };

  return {
    get tick() {
      return tick;
    },
    subscribe(listener) {
      // Each subscription is an entry of its own, even for the same function.
      const entry = () => listener();
      listeners.add(entry);
      if (timer === undefined) start();
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0 && timer !== undefined) stop();
      };
    },
  };
}

/** The app's clock: spinners, the agents panel's rows and its updates all step on it. */
export const refreshClock: RefreshClock = createRefreshClock();

/**
 * The ticks of `clock` (by default the app's) since the calling component mounted, re-rendering
 * it on each while `active`; frozen while inactive, and the clock stops when nothing is active.
 * Like `useTicker`, but every caller changes in the same frame.
 */
export function useRefreshTick(active: boolean, clock: RefreshClock = refreshClock): number {
  const origin = useRef<number | undefined>(undefined);
  origin.current ??= clock.tick;
  const frozen = useRef(0);
  const subscribe = useCallback(
    (listener: () => void) => (active ? clock.subscribe(listener) : () => undefined),
    [active, clock],
  );
  const tick = useSyncExternalStore(subscribe, () =>
    active ? clock.tick - (origin.current ?? 0) : frozen.current,
  );
  if (active) frozen.current = tick;
  return tick;
}
