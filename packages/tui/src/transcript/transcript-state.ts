import type { AgentTag } from "@nyzhi/core";
import type { AgentLabel, TranscriptItem, TranscriptState } from "./transcript-types.js";

/** An empty transcript: the lead's, or with `owner` one agent's (see `TranscriptState.owner`). */
export function createTranscriptState(owner?: AgentTag): TranscriptState {
  return {
    ...(owner ? { owner: { agentId: owner.agentId, depth: owner.depth } } : {}),
    items: [],
    queued: [],
    epoch: 0,
    nextId: 1,
    open: {},
    stepItems: {},
    tools: {},
    agents: {},
    turnStartedAt: undefined,
  };
}

/** Whether the event's agent owns this transcript (the lead's: depth 0; an agent's: that agent). */
export function isOwner(state: TranscriptState, tag: { agentId: string; depth: number }): boolean {
  return state.owner ? tag.agentId === state.owner.agentId : tag.depth === 0;
}

/** How deep an agent is drawn in this transcript: its depth below the owner's (the lead's: as is). */
export function shownDepth(state: TranscriptState, depth: number): number {
  return state.owner ? Math.max(0, depth - state.owner.depth) : depth;
}

/** The label of the agent behind an event; a subagent's nickname and role come from its spawn. */
export function labelOf(state: TranscriptState, tag: AgentTag): AgentLabel {
  const known = state.agents[tag.agentId];
  return {
    agentId: tag.agentId,
    depth: shownDepth(state, tag.depth),
    nickname: tag.nickname ?? known?.nickname,
    role: tag.role ?? known?.role,
  };
}

/** A fresh item id. */
export function nextItemId(state: TranscriptState): { id: string; state: TranscriptState } {
  return { id: `item-${state.nextId}`, state: { ...state, nextId: state.nextId + 1 } };
}

/**
 * Appends an item. With `stepOf`, the item is recorded as made during that agent's current step,
 * so a retry that discards the step can take it back.
 */
export function appendItem(
  state: TranscriptState,
  build: (id: string) => TranscriptItem,
  stepOf?: string,
): TranscriptState {
  return insertAt(state, state.items.length, build, stepOf);
}

function insertAt(
  state: TranscriptState,
  at: number,
  build: (id: string) => TranscriptItem,
  stepOf: string | undefined,
): TranscriptState {
  const { id, state: next } = nextItemId(state);
  const withItem = { ...next, items: [...next.items.slice(0, at), build(id), ...next.items.slice(at)] };
  if (stepOf === undefined) return withItem;
  return {
    ...withItem,
    stepItems: { ...withItem.stepItems, [stepOf]: [...(withItem.stepItems[stepOf] ?? []), id] },
  };
}

/**
 * Inserts an item just below the live row `anchorId` and the items already placed below it
 * (those `belongs` accepts), so what a tool call caused (its diff, the subagents it started) reads
 * under its call and not wherever the list had got to. A row that is no longer live (already in the
 * scrollback) or gone takes nothing: the item is appended as usual.
 */
export function insertBelow(
  state: TranscriptState,
  anchorId: string | undefined,
  build: (id: string) => TranscriptItem,
  belongs: (item: TranscriptItem) => boolean = () => false,
  stepOf?: string,
): TranscriptState {
  const anchor = anchorId === undefined ? -1 : state.items.findLastIndex((item) => item.id === anchorId);
  if (anchor < 0 || state.items[anchor]!.done) return appendItem(state, build, stepOf);
  let at = anchor + 1;
  while (at < state.items.length && belongs(state.items[at]!)) at += 1;
  return insertAt(state, at, build, stepOf);
}

/** Replaces the item with `id` (searched from the end, where live items are). */
export function updateItem(
  state: TranscriptState,
  id: string,
  update: (item: TranscriptItem) => TranscriptItem,
): TranscriptState {
  const index = state.items.findLastIndex((item) => item.id === id);
  if (index < 0) return state;
  const items = state.items.slice();
  items[index] = update(items[index]!);
  return { ...state, items };
}

/**
 * Ends an agent's streaming: its text and thinking items of this step are final (`done`), and
 * the next delta starts a new item. Called when the step's stream is over (tools start, the step
 * or turn ends), not earlier, because a retry may still discard what the step streamed.
 */
export function finalizeStream(state: TranscriptState, agentId: string): TranscriptState {
  const made = new Set(state.stepItems[agentId] ?? []);
  const hasOpen = state.open[agentId] !== undefined;
  if (made.size === 0 && !hasOpen) return state;
  const items = state.items.map((item) =>
    made.has(item.id) && !item.done && (item.kind === "assistant" || item.kind === "thinking")
      ? { ...item, done: true }
      : item,
  );
  const { [agentId]: _closed, ...open } = state.open;
  return { ...state, items, open, stepItems: { ...state.stepItems, [agentId]: [] } };
}

/** Removes what an agent streamed in a step that a retry discards (text, thinking, begun calls). */
export function discardStep(
  state: TranscriptState,
  agentId: string,
  callIds: readonly string[],
): TranscriptState {
  const made = new Set(state.stepItems[agentId] ?? []);
  for (const callId of callIds) {
    const id = state.tools[callId];
    if (id) made.add(id);
  }
  const tools = { ...state.tools };
  for (const callId of callIds) delete tools[callId];
  const { [agentId]: _discarded, ...open } = state.open;
  return {
    ...state,
    items: state.items.filter((item) => !made.has(item.id) || item.done),
    tools,
    open,
    stepItems: { ...state.stepItems, [agentId]: [] },
  };
}

/** Formats a wait for the retry line: 4000 → "4 s", 1500 → "1.5 s". */
export function formatWait(waitMs: number): string {
  const seconds = Math.round(waitMs / 100) / 10;
  return `${seconds} s`;
}

/** "rate limited, retrying in 4 s (1/3)", or the failure's own reason when it is not a 429. */
export function retryMessage(event: {
  attempt: number;
  maxAttempts: number;
  waitMs: number;
  reason: string;
}): string {
  const rateLimited = /rate.?limit|\b429\b|too many requests/i.test(event.reason);
  // The reason is a sentence ("… (500: internal server error)."): its own full stop goes before the comma.
  const reason = (event.reason.split("\n")[0] ?? "").replace(/[\s.]+$/, "");
  const why = rateLimited ? "rate limited" : reason || "request failed";
  return `${why}, retrying in ${formatWait(event.waitMs)} (${event.attempt}/${event.maxAttempts})`;
}
