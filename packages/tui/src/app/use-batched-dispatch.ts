import { useEffect, useRef, useState } from "react";
import { requestImmediateFrame } from "../keys/immediate-frame.js";
import { type RefreshClock, refreshClock } from "../tools/refresh-clock.js";

/** How long inputs are gathered into one dispatch after the first, ms (about one 60 Hz frame). */
export const BATCH_WINDOW_MS = 16;

export interface LeadingBatcher<T> {
  push(input: T): void;
  /** Pushes inputs that arrived together: after a quiet spell they are dispatched at once, as one. */
  pushAll(inputs: readonly T[]): void;
  /** Dispatches what is queued now instead of at the window's end (the window starts again). */
  flush(): void;
  /** Dispatches what is queued and stops; later inputs are dispatched at once, one by one. */
  close(): void;
}

/**
 * Batches a stream of inputs into one dispatch per window: the first input after a quiet spell is
 * dispatched at once (a prompt, a command's notice, the first token of an answer show without
 * delay), the ones that follow within `windowMs` together when it ends: the first input never waits.
 */
export function createLeadingBatcher<T>(
  dispatch: (inputs: readonly T[]) => void,
  windowMs = BATCH_WINDOW_MS,
): LeadingBatcher<T> {
  let queue: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const endWindow = () => {
    const batch = queue;
    queue = [];
    if (batch.length === 0) {
      timer = undefined;
      return;
    }
    dispatch(batch);
    timer = setTimeout(endWindow, windowMs);
  };
  const pushAll = (inputs: readonly T[]) => {
    if (inputs.length === 0) return;
    if (timer !== undefined) {
      queue.push(...inputs);
      return;
    }
    dispatch(inputs);
    if (!closed) timer = setTimeout(endWindow, windowMs);
  };
  return {
    push: (input) => pushAll([input]),
    pushAll,
    flush() {
      if (queue.length === 0) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      endWindow();
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const batch = queue;
      queue = [];
      if (batch.length > 0) dispatch(batch);
    },
  };
}

/**
 * A leading batcher with a slow lane: inputs that `isBackground` picks wait for the next tick of
 * `clock` and go on together, so what moves on its own changes in the clock's frames (ten a
 * second, after a key's frame while the user types: see tools/refresh-clock.ts). Any other input
 * sends the waiting ones on first, so the order of inputs holds. An input `isUrgent` picks (the
 * first words of an answer) is dispatched at once with everything queued before it, and
 * `onUrgent` is told (the app then draws its frame at once, outside ink's frame rate).
 */
export function createTwoLaneBatcher<T>(
  dispatch: (inputs: readonly T[]) => void,
  options: {
    isBackground: (input: T) => boolean;
    isUrgent?: (input: T) => boolean;
    onUrgent?: () => void;
    clock?: RefreshClock;
    windowMs?: number;
  },
): LeadingBatcher<T> {
  const clock = options.clock ?? refreshClock;
  const leading = createLeadingBatcher(dispatch, options.windowMs);
  let waiting: T[] = [];
  let stopTicks: (() => void) | undefined;
  const sendWaiting = () => {
    stopTicks?.();
    stopTicks = undefined;
    const inputs = waiting;
    waiting = [];
    leading.pushAll(inputs);
  };
  const push = (input: T) => {
    if (options.isBackground(input)) {
      waiting.push(input);
      stopTicks ??= clock.subscribe(sendWaiting);
      return;
    }
    if (waiting.length > 0) sendWaiting();
    leading.push(input);
    if (options.isUrgent?.(input)) {
      leading.flush();
      options.onUrgent?.();
    }
  };
  return {
    push,
    pushAll: (inputs) => {
      for (const input of inputs) push(input);
    },
    flush: () => leading.flush(),
    close() {
      sendWaiting();
      leading.close();
    },
  };
}

/**
 * `createLeadingBatcher` for a component's reducer: eight subagents streaming fifty events a
 * second each then cost at most ~60 renders a second, not four hundred. With `background`, the
 * inputs it picks wait for the refresh clock (`createTwoLaneBatcher`); with `urgent`, the inputs it
 * picks are dispatched at once and drawn in an immediate frame (`requestImmediateFrame`).
 */
export function useBatchedDispatch<T>(
  dispatch: (inputs: readonly T[]) => void,
  options: { background?: (input: T) => boolean; urgent?: (input: T) => boolean } = {},
): (input: T) => void {
  const dispatchRef = useRef(dispatch);
  dispatchRef.current = dispatch;
  const backgroundRef = useRef(options.background);
  backgroundRef.current = options.background;
  const urgentRef = useRef(options.urgent);
  urgentRef.current = options.urgent;
  const [batcher] = useState(() =>
    createTwoLaneBatcher<T>((inputs) => dispatchRef.current(inputs), {
      isBackground: (input) => backgroundRef.current?.(input) ?? false,
      isUrgent: (input) => urgentRef.current?.(input) ?? false,
      onUrgent: requestImmediateFrame,
    }),
  );
  useEffect(() => () => batcher.close(), [batcher]);
  return batcher.push;
}

/** A reducer over single inputs, lifted to batches of them. */
export function batchReducer<S, T>(reduce: (state: S, input: T) => S): (state: S, inputs: readonly T[]) => S {
  return (state, inputs) => inputs.reduce(reduce, state);
}
