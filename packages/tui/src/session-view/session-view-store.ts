import { useSyncExternalStore } from "react";
import {
  createSessionView,
  reduceSessionView,
  type SessionView,
  type SessionViewInput,
} from "./session-view.js";

/**
 * The app's view of its session outside React. The app's one event pump (`useBatchedDispatch`:
 * the lead's events within a frame, subagents' on the refresh clock's ticks) hands it each batch;
 * the batch goes through `reduceSessionView` at once and is published when it changed the view.
 * Each part of the screen reads its slice (`useSessionView`) and renders when that slice changed:
 * the transcript on the lead's events, the agents panel on its agents', nothing else.
 */
export interface SessionViewStore {
  /** The view as the screen shows it now. */
  snapshot(): SessionView;
  /** Calls `listener` on each publish; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Reduces a batch (one of the app's pump) and publishes when the view changed. */
  pushAll(inputs: readonly SessionViewInput[]): void;
  /** Reduces one input (`pushAll` of one): the app's own actions that need no batching. */
  push(input: SessionViewInput): void;
  /** Stops; later pushes are dropped. */
  close(): void;
}

export function createSessionViewStore(): SessionViewStore {
  const listeners = new Set<() => void>();
  let view = createSessionView();
  let closed = false;
  const pushAll = (inputs: readonly SessionViewInput[]) => {
    if (closed || inputs.length === 0) return;
    const next = reduceSessionView(view, inputs);
    if (next === view) return;
    view = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    snapshot: () => view,
    subscribe(listener) {
      const entry = () => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    pushAll,
    push: (input) => pushAll([input]),
    close() {
      closed = true;
    },
  };
}

/**
 * One slice of the view (`select` must return a slice or a value, not a new object): the caller
 * re-renders when a publish changed it, not on the rest of the view's changes.
 */
export function useSessionView<T>(store: SessionViewStore, select: (view: SessionView) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.snapshot()));
}
