import { assertNever } from "@nyzhi/core";
import { appendItem, createTranscriptState, nextItemId, updateItem } from "./transcript-state.js";
import type { TranscriptAction, TranscriptState } from "./transcript-types.js";

/** The app's own actions: prompts, the queue, notices, expanding an item, clearing. */
export function reduceAction(state: TranscriptState, action: TranscriptAction, _at: number): TranscriptState {
  switch (action.type) {
    case "user-prompt":
      return appendItem(state, (id) => ({
        kind: "user",
        id,
        done: true,
        text: action.text,
        ...(action.chips?.length ? { chips: action.chips } : {}),
      }));
    case "prompt-queued": {
      const { id, state: next } = nextItemId(state);
      return { ...next, queued: [...next.queued, { id, text: action.text }] };
    }
    case "queued-prompt-delivered":
      return deliverQueued(state, action.id);
    case "queue-cleared":
      return state.queued.length === 0 ? state : { ...state, queued: [] };
    case "app-notice":
      return appendItem(state, (id) => ({
        kind: "notice",
        id,
        done: true,
        message: action.message,
        tone: action.tone ?? "info",
      }));
    case "app-header":
      return appendItem(state, (id) => ({ kind: "header", id, done: true, header: action.header }));
    case "app-error":
      return appendItem(state, (id) => ({
        kind: "error",
        id,
        done: true,
        agent: { agentId: "app", depth: 0 },
        message: action.message,
      }));
    case "app-diff":
      return appendItem(state, (id) => ({
        kind: "diff",
        id,
        done: true,
        agent: { agentId: "app", depth: 0 },
        path: action.path,
        diff: action.diff,
        created: action.created,
        expanded: true,
      }));
    case "item-expanded":
      return updateItem(state, action.id, (item) =>
        item.kind === "tool" || item.kind === "thinking" ? { ...item, expanded: action.expanded } : item,
      );
    case "transcript-cleared":
      return {
        ...createTranscriptState(),
        ...(state.owner ? { owner: state.owner } : {}),
        epoch: state.epoch + 1,
        nextId: state.nextId,
        queued: state.queued,
        agents: state.agents,
      };
    default:
      return assertNever(action);
  }
}

/** A queued prompt (`id`, else the oldest) reached the lead: it moves from the queue into the transcript. */
export function deliverQueued(state: TranscriptState, queuedId?: string): TranscriptState {
  const prompt = queuedId === undefined ? state.queued[0] : state.queued.find((q) => q.id === queuedId);
  if (!prompt) return state;
  const next = { ...state, queued: state.queued.filter((q) => q.id !== prompt.id) };
  return appendItem(next, (id) => ({ kind: "user", id, done: true, text: prompt.text }));
}
