import type { ModelMessage, Usage } from "@nyzhi/provider";
import type { BudgetReport } from "../budgets/budget-types.js";

/** What lists and searches show of a session, without loading its thread. */
export interface SessionMeta {
  id: string;
  title: string;
  /** RFC 3339, UTC. */
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  provider: string;
  /** The model actually used for the session's last turn. */
  model: string;
  /** Where the session ran. */
  projectRoot?: string;
  usage?: Usage;
  /** US dollars of the model requests and the code index's remote embedder. */
  costUsd?: number;
  /** Tokens the code index's remote embedder charged (absent when none). */
  embeddingTokens?: number;
}

/** A subagent's own conversation, saved with its parent session so it can be resumed. */
export interface SavedAgentThread {
  agentId: string;
  nickname: string;
  role: string;
  depth: number;
  parentId: string;
  status: string;
  model: string;
  messages: ModelMessage[];
  result?: string;
  /**
   * Tokens and cost (USD) of the agent's own model requests, across every run of the session
   * (a resumed agent adds to them). Absent in files saved before usage was kept.
   */
  usage?: Usage;
  costUsd?: number;
  /** The same for the agent and all its descendants, forgotten ones included. */
  subtreeUsage?: Usage;
  subtreeCostUsd?: number;
  /** Its budget when it had one: limit, spent and left (of its last run). */
  budget?: BudgetReport;
  /** Its git worktree, while its changes wait for a merge or a discard. */
  worktree?: { branch: string; path: string; base: string; diffStat: string };
}

export interface SessionRecord {
  meta: SessionMeta;
  messages: ModelMessage[];
  /** Children's threads by agent id. */
  agents?: Record<string, SavedAgentThread>;
  /**
   * The last line of the session's journal (`SessionJournal`) this record holds: loading applies
   * only later lines. Absent before the session's first journaled step.
   */
  journalSeq?: number;
}

/**
 * A session file that cannot be read as a session (truncated, not JSON, not a session file), so
 * that lists and lookups can name it instead of hiding it.
 */
export interface DamagedSession {
  /** The file name without `.json`: the id the session was saved under. */
  id: string;
  path: string;
  /** What is wrong, e.g. `not valid JSON (Unexpected end of JSON input)`. */
  problem: string;
  /** The file's modification time, RFC 3339, UTC. */
  modifiedAt: string;
}

/** The session folder read in full: the readable sessions and the damaged files. */
export interface SessionScan {
  /** Newest first. */
  sessions: SessionMeta[];
  /** Newest first. */
  damaged: DamagedSession[];
}

/** What a query names: a readable session, or a damaged file. */
export type ResolvedSession =
  | { kind: "session"; meta: SessionMeta }
  | { kind: "damaged"; damaged: DamagedSession };
