import {
  type AgentsPanelInput,
  type AgentsPanelState,
  createAgentsPanelState,
  reduceAgentsPanel,
} from "./agents-panel-state.js";

/**
 * The agents panel's state outside React. The app's one event pump (`useBatchedDispatch`: lead
 * events within a frame, subagents' on the refresh clock's ticks) hands it each batch it also
 * gives the transcript; the batch is reduced at once and published when it changed the state.
 * Subscribers (the panel, through `useSyncExternalStore`) render on publish, nothing else does;
 * the rows themselves redraw on the refresh tick (`useGatedNodes`).
 */
export interface AgentsPanelStore {
  /** The state as the panel shows it now. */
  snapshot(): AgentsPanelState;
  /** Calls `listener` on each publish; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Reduces a batch of events (one of the app's pump) and publishes what changed. */
  pushAll(inputs: readonly AgentsPanelInput[]): void;
  /** Reduces one event (`pushAll` of one). */
  push(input: AgentsPanelInput): void;
  /** Changes the state (clearing finished agents) and shows it now. */
  update(change: (state: AgentsPanelState) => AgentsPanelState): void;
  /** Stops; later pushes are dropped. */
  close(): void;
}

export function createAgentsPanelStore(): AgentsPanelStore {
  const listeners = new Set<() => void>();
  let state = createAgentsPanelState();
  let closed = false;
  const publish = (next: AgentsPanelState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  const pushAll = (inputs: readonly AgentsPanelInput[]) => {
    if (!closed && inputs.length > 0) publish(reduceAgentsPanel(state, inputs));
  };
  return {
    snapshot: () => state,
    subscribe(listener) {
      const entry = () => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    pushAll,
    push: (input) => pushAll([input]),
    update: (change) => publish(change(state)),
    close() {
      closed = true;
    },
  };
}
