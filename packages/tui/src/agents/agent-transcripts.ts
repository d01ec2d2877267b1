import type { AgentEvent, AgentEventOf, TurnEndReason } from "@nyzhi/core";
import { transcriptReducer } from "../transcript/transcript-reducer.js";
import { createTranscriptState } from "../transcript/transcript-state.js";
import type { TranscriptInput, TranscriptState } from "../transcript/transcript-types.js";
import {
  type AgentLifecycle,
  type AgentTreeState,
  addUsageTotals,
  emptyUsageTotals,
  isFinished,
  type UsageTotals,
} from "./agent-tree-types.js";

/** One subagent's or teammate's transcript, and the turn it is in (core reports no turns for them). */
export interface AgentTranscript {
  state: TranscriptState;
  /** Steps and usage since it began working; undefined while it is not working. */
  turn: { steps: number; usage: UsageTotals } | undefined;
}

export type AgentTranscripts = Readonly<Record<string, AgentTranscript>>;

/** Input the app sent to an agent (`manager.sendInput` or `resume`): shown as a user prompt. */
export interface AgentInputAction {
  type: "agent-input";
  agentId: string;
  text: string;
}

export type AgentTranscriptInput = (AgentEvent | AgentInputAction) & { at?: number };

function empty(): AgentTranscript {
  return { state: createTranscriptState(), turn: undefined };
}

/**
 * The event as if the agent were the lead (depth 0, its children one level down), so the
 * transcript reducer shows its text, thinking and tool rows as it shows the lead's.
 */
function rebase(event: AgentEvent): AgentEvent {
  const base = event.agent.depth;
  const agent = { ...event.agent, depth: 0 };
  if (event.type === "subagent-spawned") return { ...event, agent, depth: event.depth - base };
  return { ...event, agent };
}

function feed(entry: AgentTranscript, input: TranscriptInput): AgentTranscript {
  return { ...entry, state: transcriptReducer(entry.state, input) };
}

function turnEndReason(lifecycle: AgentLifecycle): TurnEndReason {
  if (lifecycle === "errored") return "error";
  if (lifecycle === "shutdown") return "aborted";
  return "completed";
}

/** A child's lifecycle as its own transcript sees it: a turn starts when it works, ends when it stops. */
function lifecycleOf(
  entry: AgentTranscript,
  childId: string,
  lifecycle: AgentLifecycle,
  at: number,
): AgentTranscript {
  const tag = { agentId: childId, depth: 0 };
  if (lifecycle === "running" && !entry.turn) {
    const started = feed(entry, {
      type: "turn-start",
      agent: tag,
      turnId: `${childId}:${at}`,
      input: "",
      at,
    });
    return { ...started, turn: { steps: 0, usage: emptyUsageTotals() } };
  }
  if ((isFinished(lifecycle) || lifecycle === "idle") && entry.turn) {
    const { steps, usage } = entry.turn;
    const ended = feed(entry, {
      type: "turn-end",
      agent: tag,
      turnId: `${childId}`,
      reason: turnEndReason(lifecycle),
      steps,
      usage: usage.usage,
      costUsd: usage.costUsd,
      text: "",
      at,
    });
    return { ...ended, turn: undefined };
  }
  return entry;
}

function childLifecycle(
  event: AgentEventOf<"subagent-spawned" | "subagent-status-changed" | "subagent-completed">,
): AgentLifecycle | undefined {
  if (event.type === "subagent-spawned") return undefined;
  return event.state.lifecycle;
}

/** An agent's own event: into its transcript, counting its steps and usage for the turn's footer. */
function ownEvent(entry: AgentTranscript, event: AgentEvent, at: number): AgentTranscript {
  const next = feed(entry, { ...rebase(event), at });
  if (!next.turn) return next;
  if (event.type === "step-start") return { ...next, turn: { ...next.turn, steps: event.step } };
  if (event.type === "usage") {
    const usage = addUsageTotals(next.turn.usage, { usage: event.usage, costUsd: event.costUsd });
    return { ...next, turn: { ...next.turn, usage } };
  }
  return next;
}

/**
 * Keeps a live transcript per subagent and teammate, built by the lead's own transcript reducer
 * from that agent's events alone: its text, thinking, tools, approvals and diffs, the lifecycle
 * lines of the agents it spawns, the input the user sent it, and a footer when it stops. Pure.
 */
export function agentTranscriptsReducer(
  transcripts: AgentTranscripts,
  input: AgentTranscriptInput,
): AgentTranscripts {
  const at = input.at ?? Date.now();
  if (input.type === "agent-input") {
    const entry = transcripts[input.agentId] ?? empty();
    return { ...transcripts, [input.agentId]: feed(entry, { type: "user-prompt", text: input.text, at }) };
  }
  const event = input as AgentEvent;
  let next = transcripts;
  if (event.agent.depth > 0) {
    const owner = event.agent.agentId;
    next = { ...next, [owner]: ownEvent(next[owner] ?? empty(), event, at) };
  }
  if (
    event.type === "subagent-spawned" ||
    event.type === "subagent-status-changed" ||
    event.type === "subagent-completed"
  ) {
    const entry = next[event.childId] ?? empty();
    const lifecycle = childLifecycle(event);
    const changed = lifecycle === undefined ? entry : lifecycleOf(entry, event.childId, lifecycle, at);
    if (changed !== next[event.childId]) next = { ...next, [event.childId]: changed };
  }
  return next;
}

/** Drops the transcripts of agents no longer in the tree (after `clearFinished`). */
export function pruneTranscripts(transcripts: AgentTranscripts, tree: AgentTreeState): AgentTranscripts {
  const kept = Object.entries(transcripts).filter(([id]) => tree.nodes[id] !== undefined);
  return kept.length === Object.keys(transcripts).length ? transcripts : Object.fromEntries(kept);
}
