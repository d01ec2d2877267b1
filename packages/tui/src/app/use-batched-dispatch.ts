import { useEffect, useRef, useState } from "react";

/** How long inputs are gathered into one dispatch after the first, ms (about one 60 Hz frame). */
export const BATCH_WINDOW_MS = 16;

export interface LeadingBatcher<T> {
  push(input: T): void;
  /** Dispatches what is queued and stops; later inputs are dispatched at once, one by one. */
  close(): void;
}

/**
 * Batches a stream of inputs into one dispatch per window: the first input after a quiet spell is
 * dispatched at once (a prompt, a command's notice, the first token of an answer show without
 * delay), the ones that follow within `windowMs` together when it ends. Unlike the agents panel's
 * `createEventBatcher`, the first input never waits.
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
  return {
    push(input) {
      if (timer !== undefined) {
        queue.push(input);
        return;
      }
      dispatch([input]);
      if (!closed) timer = setTimeout(endWindow, windowMs);
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
 * `createLeadingBatcher` for a component's reducer: eight subagents streaming fifty events a
 * second each then cost at most ~60 renders a second, not four hundred.
 */
export function useBatchedDispatch<T>(dispatch: (inputs: readonly T[]) => void): (input: T) => void {
  const dispatchRef = useRef(dispatch);
  dispatchRef.current = dispatch;
  const [batcher] = useState(() => createLeadingBatcher<T>((inputs) => dispatchRef.current(inputs)));
  useEffect(() => () => batcher.close(), [batcher]);
  return batcher.push;
}

/** A reducer over single inputs, lifted to batches of them. */
export function batchReducer<S, T>(reduce: (state: S, input: T) => S): (state: S, inputs: readonly T[]) => S {
  return (state, inputs) => inputs.reduce(reduce, state);
}
