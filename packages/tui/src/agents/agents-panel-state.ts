import type { TeamSnapshot } from "@nyzhi/core";
import {
  type AgentInputAction,
  type AgentTranscripts,
  agentTranscriptsReducer,
  pruneTranscripts,
} from "./agent-transcripts.js";
import type { AgentTreeInput, AgentTreeState } from "./agent-tree-types.js";
import { agentTreeReducer, clearFinished, createAgentTreeState } from "./agents-reducer.js";

/**
 * Everything the agents panel draws: the tree, each agent's transcript for when it is opened, and
 * the teams the session takes part in (core's `team-state` events; undefined while in none).
 */
export interface AgentsPanelState {
  tree: AgentTreeState;
  transcripts: AgentTranscripts;
  teams: TeamSnapshot | undefined;
}

export type AgentsPanelInput = AgentTreeInput | (AgentInputAction & { at?: number });

export function createAgentsPanelState(): AgentsPanelState {
  return { tree: createAgentTreeState(), transcripts: {}, teams: undefined };
}

/**
 * Feeds one frame's batch of events (from `createEventBatcher`) to the tree and the transcripts.
 * Pure; the state object is kept when nothing changed.
 */
export function reduceAgentsPanel(
  state: AgentsPanelState,
  inputs: readonly AgentsPanelInput[],
): AgentsPanelState {
  let tree = state.tree;
  let transcripts = state.transcripts;
  let teams = state.teams;
  for (const input of inputs) {
    const at = input.at ?? Date.now();
    if (input.type === "team-state") {
      // Core's whole team state after a change (its own or another process's): shown as given.
      teams = input.teams.length > 0 ? { teams: input.teams } : undefined;
      continue;
    }
    if (input.type !== "agent-input") tree = agentTreeReducer(tree, { ...input, at });
    transcripts = agentTranscriptsReducer(transcripts, { ...input, at });
  }
  return tree === state.tree && transcripts === state.transcripts && teams === state.teams
    ? state
    : { tree, transcripts, teams };
}

/** Drops finished agents and their transcripts (the app calls it when the user sends the next prompt). */
export function clearFinishedAgents(state: AgentsPanelState): AgentsPanelState {
  const tree = clearFinished(state.tree);
  if (tree === state.tree) return state;
  return { ...state, tree, transcripts: pruneTranscripts(state.transcripts, tree) };
}
