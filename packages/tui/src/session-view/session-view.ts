import type { AgentEvent, TeamSnapshot } from "@nyzhi/core";
import {
  type AgentInputAction,
  type AgentTranscripts,
  agentTranscriptsReducer,
  pruneTranscripts,
} from "../agents/agent-transcripts.js";
import type { AgentTreeState } from "../agents/agent-tree-types.js";
import {
  agentTreeReducer,
  clearFinished,
  createAgentTreeState,
  worktreeDecided,
} from "../agents/agents-reducer.js";
import { transcriptReducer } from "../transcript/transcript-reducer.js";
import { createTranscriptState } from "../transcript/transcript-state.js";
import type { TokenUsage, TranscriptInput, TranscriptState } from "../transcript/transcript-types.js";

/**
 * The session's figures as core last reported them (`usage`, `turn-complete`, `session-opened`:
 * every agent's steps; `index-progress`: the code index's embedder too). Shown as sent, never summed.
 */
export interface SessionTotals {
  usage: TokenUsage;
  costUsd: number;
  embeddingTokens: number;
}

/**
 * Everything the app shows of its session, in one state: the lead's transcript (the main screen),
 * each subagent's and teammate's transcript keyed by its agent id, the tree of agents (the panel's
 * rows and their Σ), the session's totals (the status line) and the teams (core's `team-state`).
 * Each slice keeps its object while an event does not change it, so a view reading one slice does
 * not redraw for another's events.
 */
export interface SessionView {
  lead: TranscriptState;
  agents: AgentTranscripts;
  tree: AgentTreeState;
  totals: SessionTotals;
  /** Undefined while the session takes part in no team. */
  teams: TeamSnapshot | undefined;
}

/** What the app itself changes in the view (not an event of the session). */
export type SessionViewAction =
  /** Input the user sent to an agent (`agents.send`, `resume`): a prompt in its transcript. */
  | AgentInputAction
  /** The next prompt: finished agents leave the tree, with their transcripts. */
  | { type: "finished-agents-cleared" }
  /** An agent's worktree changes were merged or discarded: its row stops offering them. */
  | { type: "agent-worktree-decided"; agentId: string }
  /** The teams read when a session opens; an event that came first is newer and wins. */
  | { type: "teams-read"; teams: TeamSnapshot };

/** One input of the view: an event of the session, a transcript action or a view action. */
export type SessionViewInput = TranscriptInput | (SessionViewAction & { at?: number });

export function emptySessionTotals(): SessionTotals {
  return {
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    embeddingTokens: 0,
  };
}

export function createSessionView(): SessionView {
  return {
    lead: createTranscriptState(),
    agents: {},
    tree: createAgentTreeState(),
    totals: emptySessionTotals(),
    teams: undefined,
  };
}

/** The session's totals an event brings, or undefined when it brings none. */
function totalsOf(event: AgentEvent): SessionTotals | undefined {
  switch (event.type) {
    case "usage":
    case "turn-complete":
    case "index-progress":
    // A resumed session's figures as it opens (earlier runs'): the status line starts there.
    case "session-opened":
      return event.sessionTotal;
    default:
      return undefined;
  }
}

/** The tree without its finished agents, and the transcripts of those left. */
function withoutFinished(tree: SessionView["tree"], agents: SessionView["agents"]) {
  const kept = clearFinished(tree);
  return { tree: kept, agents: kept === tree ? agents : pruneTranscripts(agents, kept) };
}

/**
 * The app's one reducer: a batch of the one pump's inputs (in order) into the next view. Each
 * event goes, as core sent it, to the slices it concerns: the lead's transcript, the tree, the
 * transcript of the agent it comes from, the totals, the teams. A slice that shows nothing of an
 * event keeps its object (the lead's transcript for a subagent's text deltas, the tree for the
 * lead's): the view reading it does not redraw. Pure (an input's `at`, else the batch's time, is the clock); the view object
 * is kept when nothing changed, and so is each slice nothing changed.
 */
export function reduceSessionView(view: SessionView, inputs: readonly SessionViewInput[]): SessionView {
  let { lead, agents, tree, totals, teams } = view;
  const now = Date.now();
  for (const input of inputs) {
    const at = input.at ?? now;
    if (!("agent" in input)) {
      switch (input.type) {
        case "agent-input":
          agents = agentTranscriptsReducer(agents, { ...input, at });
          break;
        case "finished-agents-cleared":
          ({ tree, agents } = withoutFinished(tree, agents));
          break;
        case "agent-worktree-decided":
          tree = worktreeDecided(tree, input.agentId);
          break;
        case "teams-read":
          teams ??= input.teams;
          break;
        case "transcript-cleared":
          // A new session (`/clear`, `/resume`) or a rewind: the figures and finished agents go with the transcript.
          totals = emptySessionTotals();
          lead = transcriptReducer(lead, { ...input, at });
          ({ tree, agents } = withoutFinished(tree, agents));
          break;
        default:
          lead = transcriptReducer(lead, { ...input, at });
      }
      continue;
    }
    const event = input.at === undefined ? { ...input, at } : input;
    totals = totalsOf(event) ?? totals;
    if (event.type === "team-state") {
      // Core's whole team state after a change (its own or another process's): shown as given.
      teams = event.teams.length > 0 ? { teams: event.teams } : undefined;
      continue;
    }
    lead = transcriptReducer(lead, event);
    tree = agentTreeReducer(tree, event);
    if (event.agent.depth > 0) agents = agentTranscriptsReducer(agents, event);
  }
  return lead === view.lead &&
    agents === view.agents &&
    tree === view.tree &&
    totals === view.totals &&
    teams === view.teams
    ? view
    : { lead, agents, tree, totals, teams };
}
