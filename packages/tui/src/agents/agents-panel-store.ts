import { type RefreshClock, refreshClock } from "../tools/refresh-clock.js";
import { isFinished } from "./agent-tree-types.js";
import {
  type AgentsPanelInput,
  type AgentsPanelState,
  createAgentsPanelState,
  reduceAgentsPanel,
} from "./agents-panel-state.js";
import { createEventBatcher } from "./event-batcher.js";
import { isMajorChange } from "./use-gated-nodes.js";

/**
 * The agents panel's state outside React: events are reduced once per frame, and what the panel
 * shows is published only when it would draw something new. Subscribers (the panel, through
 * `useSyncExternalStore`) render on publish, nothing else does: eight agents streaming fifty
 * events a second change the state every frame, but their rows change ten times a second.
 */
export interface AgentsPanelStore {
  /** The state as the panel shows it now. */
  snapshot(): AgentsPanelState;
  /** Calls `listener` on each publish; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Queues an event; what is queued is reduced once per frame (`createEventBatcher`). */
  push(input: AgentsPanelInput): void;
  /** Reduces what is queued and shows it now (input sent to an agent, a new prompt). */
  flush(): void;
  /** Changes the state (clearing finished agents) and shows it now. */
  update(change: (state: AgentsPanelState) => AgentsPanelState): void;
  /** The agent whose transcript is open: its events show every frame. */
  setOpenAgent(agentId: string | undefined): void;
  /** Shows what is queued and stops; later pushes are dropped. */
  close(): void;
}

/** Whether any agent of the tree (or a teammate elsewhere) works: its row moves. */
function working(state: AgentsPanelState): boolean {
  return (
    Object.values(state.tree.nodes).some(
      (node) => !isFinished(node.lifecycle) && node.lifecycle !== "idle",
    ) || (state.teams?.teams ?? []).some((team) => team.members.some((member) => member.state === "working"))
  );
}

/**
 * Whether going from `shown` to `next` changes the panel in a way it shows at once: an agent
 * appears, goes or moves, changes lifecycle, asks for approval or reports its result (see
 * `isMajorChange`), a team changes, or the open transcript grows. What changes with every chunk (tokens, the
 * running tool, thinking / writing) waits for the refresh tick.
 */
export function showsAtOnce(
  shown: AgentsPanelState,
  next: AgentsPanelState,
  openAgent: string | undefined,
): boolean {
  if (openAgent !== undefined && shown.transcripts[openAgent] !== next.transcripts[openAgent]) return true;
  if (shown.teams !== next.teams) return true;
  const before = shown.tree;
  const after = next.tree;
  if (before === after) return false;
  if (before.roots !== after.roots || before.leadId !== after.leadId) return true;
  const ids = Object.keys(after.nodes);
  if (ids.length !== Object.keys(before.nodes).length) return true;
  return ids.some((id) => {
    const old = before.nodes[id];
    const now = after.nodes[id];
    return old === undefined || (now !== undefined && old !== now && isMajorChange(old, now));
  });
}

/**
 * The store. While an agent works, minor changes are published on `clock`'s ticks (the same ticks
 * that move the rows' spinners, so both land in one frame); idle, every change shows at once.
 */
export function createAgentsPanelStore(
  options: { clock?: RefreshClock; intervalMs?: number } = {},
): AgentsPanelStore {
  const clock = options.clock ?? refreshClock;
  const listeners = new Set<() => void>();
  let latest = createAgentsPanelState();
  let shown = latest;
  let openAgent: string | undefined;
  let stopTicks: (() => void) | undefined;

  const publish = () => {
    if (shown === latest) return;
    shown = latest;
    for (const listener of [...listeners]) listener();
  };
  /** Runs on the clock while an agent works, so its minor changes show on the ticks. */
  const followClock = () => {
    const moving = working(latest);
    if (moving && stopTicks === undefined) stopTicks = clock.subscribe(publish);
    else if (!moving && stopTicks !== undefined) {
      stopTicks();
      stopTicks = undefined;
    }
  };
  const batcher = createEventBatcher<AgentsPanelInput>(
    (inputs) => {
      const before = latest;
      latest = reduceAgentsPanel(latest, inputs);
      if (latest === before) return;
      followClock();
      if (stopTicks === undefined || showsAtOnce(shown, latest, openAgent)) publish();
    },
    options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs },
  );

  return {
    snapshot: () => shown,
    subscribe(listener) {
      const entry = () => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    push: batcher.push,
    flush() {
      batcher.flush();
      publish();
    },
    update(change) {
      batcher.flush();
      latest = change(latest);
      followClock();
      publish();
    },
    setOpenAgent(agentId) {
      openAgent = agentId;
      publish();
    },
    close() {
      batcher.close();
      publish();
      stopTicks?.();
      stopTicks = undefined;
    },
  };
}
