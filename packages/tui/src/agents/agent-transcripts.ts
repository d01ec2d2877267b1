import type { AgentEvent } from "@nyzhi/core";
import { transcriptReducer } from "../transcript/transcript-reducer.js";
import { createTranscriptState } from "../transcript/transcript-state.js";
import type { TranscriptInput, TranscriptState } from "../transcript/transcript-types.js";
import type { AgentTreeState } from "./agent-tree-types.js";

/** Each subagent's and teammate's transcript, by agent id. */
export type AgentTranscripts = Readonly<Record<string, TranscriptState>>;

/** Input the app sent to an agent (`agents.send` or `resume`): shown as a user prompt. */
export interface AgentInputAction {
  type: "agent-input";
  agentId: string;
  text: string;
}

export type AgentTranscriptInput = (AgentEvent | AgentInputAction) & { at?: number };

function feed(
  transcripts: AgentTranscripts,
  owner: { agentId: string; depth: number },
  input: TranscriptInput,
): AgentTranscripts {
  const known = transcripts[owner.agentId];
  // Created by the app's input before the agent's first event, it learns the depth from that event.
  const before =
    known === undefined
      ? createTranscriptState(owner)
      : known.owner?.depth === owner.depth
        ? known
        : { ...known, owner: { agentId: owner.agentId, depth: owner.depth } };
  const after = transcriptReducer(before, input);
  return after === known ? transcripts : { ...transcripts, [owner.agentId]: after };
}

/**
 * Keeps a live transcript per subagent and teammate: each agent's own events, as core sent them,
 * go through the app's one transcript reducer into the transcript keyed by that agent's id (its
 * owner: `createTranscriptState(agent)`). Its turns are core's `turn-start` / `turn-end` (the
 * footer shows core's figures for the turn); the lifecycle lines of the agents it spawns are its
 * own `subagent-*` events. The input the user sent it is shown as a prompt. Pure.
 */
export function agentTranscriptsReducer(
  transcripts: AgentTranscripts,
  input: AgentTranscriptInput,
): AgentTranscripts {
  const at = input.at ?? Date.now();
  if (input.type === "agent-input") {
    const known = transcripts[input.agentId];
    const owner = known?.owner ?? { agentId: input.agentId, depth: 1 };
    return feed(transcripts, owner, { type: "user-prompt", text: input.text, at });
  }
  const event = input as AgentEvent;
  if (event.agent.depth === 0) return transcripts;
  return feed(transcripts, event.agent, { ...event, at });
}

/** Drops the transcripts of agents no longer in the tree (after `clearFinished`). */
export function pruneTranscripts(transcripts: AgentTranscripts, tree: AgentTreeState): AgentTranscripts {
  const kept = Object.entries(transcripts).filter(([id]) => tree.nodes[id] !== undefined);
  return kept.length === Object.keys(transcripts).length ? transcripts : Object.fromEntries(kept);
}
