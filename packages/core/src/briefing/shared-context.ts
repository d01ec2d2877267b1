/** A todo as the briefing shows it. */
export interface BriefingTodo {
  id: string;
  content: string;
  status: string;
}

/**
 * What a parent agent shares with the subagents it spawns: a compact picture of its state, rendered
 * by `buildBriefing` into the child's system prompt. The runtime refreshes it after each parent
 * turn, so a spawn sees the state as of the last completed turn.
 */
export interface SharedContext {
  /** Files the parent changed, absolute paths, sorted and without duplicates. */
  recentChanges: string[];
  /** Todos not yet completed or cancelled. */
  activeTodos: BriefingTodo[];
  /** Recent messages, newest first, each one line (`[user] …`). */
  conversationSummary: string[];
  projectRoot?: string;
  /** The project memory text; the briefing shows its first lines. */
  projectMemory?: string;
}

/** Caps of the rendered briefing, in lines or entries. */
export const BRIEFING_LIMITS = {
  /** Lines of the whole briefing. */
  totalLines: 60,
  /** Changed files listed before `... and N more`. */
  changeEntries: 20,
  /** Messages in "Recent Conversation". */
  messages: 5,
  /** Lines of project memory. */
  memoryLines: 20,
  /** Code points of one message preview. */
  messagePreviewChars: 200,
} as const;
