import type { AgentEvent, AgentEventOf, TurnEndReason } from "@nyzhi/core";

/** Token usage as core reports it (input, output, cache reads/writes). */
export type TokenUsage = AgentEventOf<"turn-end">["usage"];

/** Who produced an item: the lead (depth 0) or a subagent with its nickname and role. */
export interface AgentLabel {
  agentId: string;
  depth: number;
  nickname?: string | undefined;
  role?: string | undefined;
}

/** A tool row's state. `pending` while the model still streams its arguments. */
export type ToolStatus = "pending" | "running" | "awaiting-approval" | "done" | "failed" | "denied";

interface ItemBase {
  /** Stable, unique within a transcript; React key. */
  id: string;
  /**
   * True once the item will never change again: the app moves it into ink `<Static>` (the
   * terminal's scrollback) and stops re-rendering it.
   */
  done: boolean;
}

export interface UserItem extends ItemBase {
  kind: "user";
  text: string;
  /** What the prompt carried besides its text (`@path` files and folders, images), one chip each. */
  chips?: readonly string[] | undefined;
}

export interface AssistantItem extends ItemBase {
  kind: "assistant";
  agent: AgentLabel;
  /** Markdown, growing while it streams. */
  text: string;
  /** Continues the answer of the item before (a long answer split while streaming): no bullet. */
  continued?: boolean;
}

export interface ThinkingItem extends ItemBase {
  kind: "thinking";
  agent: AgentLabel;
  text: string;
  /** Shown whole instead of one line. */
  expanded: boolean;
}

export interface ToolItem extends ItemBase {
  kind: "tool";
  callId: string;
  name: string;
  agent: AgentLabel;
  status: ToolStatus;
  /** One line describing the arguments (path, command, pattern …). */
  summary: string;
  input: unknown;
  /** Streamed output while running, the full output once done. */
  output: string;
  /** When the row appeared (ms since epoch), for the running clock. */
  startedAt: number;
  /** How long the tool ran (ms), once it ended. */
  durationMs?: number | undefined;
  /** Why it was refused or denied. */
  reason?: string | undefined;
  /** Shows the whole output instead of the last lines. */
  expanded: boolean;
}

export interface DiffItem extends ItemBase {
  kind: "diff";
  agent: AgentLabel;
  path: string;
  /** Unified diff hunks (`@@ -a,b +c,d @@` and `+`/`-`/` ` lines). */
  diff: string;
  created: boolean;
  /** Every row shown (`/diff`), not the first 20. */
  expanded?: boolean;
}

/** A subagent's lifecycle: spawned, queued for a slot, or finished. */
export interface SubagentItem extends ItemBase {
  kind: "subagent";
  event: "spawned" | "queued" | "completed";
  nickname: string;
  role: string;
  depth: number;
  /** Final status for `completed` (completed, errored: …), model for `spawned`. */
  detail: string;
  /** For `spawned`: the parent's tool call that started it (its row is just above). */
  callId?: string;
}

export interface RetryItem extends ItemBase {
  kind: "retry";
  agent: AgentLabel;
  /** "rate limited, retrying in 4 s (1/3)". */
  message: string;
}

export interface NoticeItem extends ItemBase {
  kind: "notice";
  agent?: AgentLabel | undefined;
  message: string;
  tone: "info" | "warning";
}

export interface ErrorItem extends ItemBase {
  kind: "error";
  agent: AgentLabel;
  message: string;
}

/** Totals of one lead turn, shown under it. */
export interface TurnFooterItem extends ItemBase {
  kind: "turn-footer";
  reason: TurnEndReason;
  steps: number;
  usage: TokenUsage;
  costUsd: number;
  /** Wall time of the turn (ms). */
  durationMs: number;
}

/** What the app says about itself when it opens (written once, first in the scrollback). */
export interface AppHeader {
  /** nyzhi's version. */
  version: string;
  /** The project folder, `~` for the home directory. */
  folder: string;
  /** Whether the project is trusted (its config may widen power). */
  trusted: boolean;
  provider: string;
  model: string;
  /** `agent.trust.mode` in force. */
  trustMode: string;
  /** `agent.sandbox` in force. */
  sandbox: string;
}

export interface HeaderItem extends ItemBase {
  kind: "header";
  header: AppHeader;
}

export type TranscriptItem =
  | HeaderItem
  | UserItem
  | AssistantItem
  | ThinkingItem
  | ToolItem
  | DiffItem
  | SubagentItem
  | RetryItem
  | NoticeItem
  | ErrorItem
  | TurnFooterItem;

/** A prompt typed while a turn runs, waiting for the next step boundary. */
export interface QueuedPrompt {
  id: string;
  text: string;
}

/** Actions of the app itself (not agent events). */
export type TranscriptAction =
  | { type: "user-prompt"; text: string; chips?: readonly string[] | undefined }
  | { type: "prompt-queued"; text: string }
  /** The first queued prompt (or the one with `id`) was delivered: it becomes a user item. */
  | { type: "queued-prompt-delivered"; id?: string }
  | { type: "queue-cleared" }
  | { type: "app-notice"; message: string; tone?: "info" | "warning" }
  /** The app's header (version, folder and trust, model, trust mode, tips). */
  | { type: "app-header"; header: AppHeader }
  | { type: "app-error"; message: string }
  /** A file's changes from the app itself (`/diff`): a whole, coloured diff. */
  | { type: "app-diff"; path: string; diff: string; created: boolean }
  /** Toggles the whole view of a thinking or tool item (if it is not in the scrollback yet). */
  | { type: "item-expanded"; id: string; expanded: boolean }
  | { type: "transcript-cleared" };

/** An agent event or an app action; `at` (ms since epoch) overrides the clock, for tests. */
export type TranscriptInput = (AgentEvent | TranscriptAction) & { at?: number };

export interface TranscriptState {
  items: readonly TranscriptItem[];
  queued: readonly QueuedPrompt[];
  /** Bumped by `transcript-cleared`: the view remounts its `<Static>` region. */
  epoch: number;
  nextId: number;
  /** Open streaming items per agent id (assistant text, thinking). */
  open: Readonly<Record<string, { assistant?: string; thinking?: string }>>;
  /** Item ids created by each agent since its step began: what a discarding retry removes. */
  stepItems: Readonly<Record<string, readonly string[]>>;
  /** Tool row id by call id. */
  tools: Readonly<Record<string, string>>;
  /** Labels of subagents by id, learnt from `subagent-spawned`. */
  agents: Readonly<Record<string, AgentLabel>>;
  /** When the owner's running turn started (ms), undefined when idle. */
  turnStartedAt: number | undefined;
  /**
   * Whose transcript this is: the lead's (absent) or one subagent's or teammate's (the agents
   * panel's). The owner's text, thinking and turn footers show as the lead's do in the main one;
   * other agents' items are tagged and indented by their depth below the owner's.
   */
  owner?: { agentId: string; depth: number };
  /** The code index's latest activity (`index-progress`), for the status line; absent before any. */
  index?: {
    phase: "building" | "updating" | "ready" | "skipped";
    filesDone: number;
    filesTotal: number;
    message?: string;
  };
}
