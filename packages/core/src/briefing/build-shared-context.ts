import type { ModelMessage } from "@nyzhi/provider";
import { BRIEFING_LIMITS, type BriefingTodo, type SharedContext } from "./shared-context.js";

export interface BuildSharedContextInput {
  /** The parent's live thread. */
  thread: readonly ModelMessage[];
  /** Paths the parent changed (the change tracker's); sorted and deduplicated here. */
  changedFiles: Iterable<string>;
  /** The parent's todos; completed and cancelled ones are left out. */
  todos: readonly BriefingTodo[];
  projectRoot?: string | undefined;
  projectMemory?: string | undefined;
}

/** Collects the parent's state for `buildBriefing`. */
export function buildSharedContext(input: BuildSharedContextInput): SharedContext {
  return {
    recentChanges: [...new Set(input.changedFiles)].sort(),
    activeTodos: input.todos
      .filter((todo) => todo.status !== "completed" && todo.status !== "cancelled")
      .map(({ id, content, status }) => ({ id, content, status })),
    conversationSummary: summarizeConversation(input.thread),
    ...(input.projectRoot !== undefined && { projectRoot: input.projectRoot }),
    ...(input.projectMemory !== undefined && { projectMemory: input.projectMemory }),
  };
}

/**
 * The last 5 user and assistant messages that carry text, newest first, as
 * `[role] <first 200 code points>…` on one line. Tool calls, tool results, images and reasoning
 * are left out.
 */
export function summarizeConversation(thread: readonly ModelMessage[]): string[] {
  const summary: string[] = [];
  for (let index = thread.length - 1; index >= 0 && summary.length < BRIEFING_LIMITS.messages; index--) {
    const message = thread[index]!;
    if (message.role === "tool") continue;
    const text = messageText(message).replace(/\s+/g, " ").trim();
    if (text === "") continue;
    summary.push(`[${message.role}] ${truncateCodePoints(text, BRIEFING_LIMITS.messagePreviewChars)}`);
  }
  return summary;
}

function messageText(message: Exclude<ModelMessage, { role: "tool" }>): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter((text) => text !== "")
    .join(" ");
}

/** Cuts by code points (never inside a surrogate pair) and marks the cut with `…`. */
export function truncateCodePoints(text: string, limit: number): string {
  const codePoints = Array.from(text);
  if (codePoints.length <= limit) return text;
  return `${codePoints.slice(0, limit).join("")}…`;
}
