import type { ModelMessage } from "@nyzhi/provider";

/**
 * Copies the parent's last `count` user turns for a forked child (`"all"` = every turn). A turn
 * starts at a user message that is not inside an open tool round (tool results are their own
 * `tool` messages, so a user message starts a turn unless a tool call before it still waits for
 * its result). Tool calls and their results stay together: the copy starts at a turn boundary,
 * and calls with no result in the copy (the parent's own `spawn_agent` call, still running) are
 * removed, dropping an assistant message they leave empty. Messages before the first turn are not
 * copied. The result is a deep copy: the child may change it freely.
 */
export function forkTurns(thread: readonly ModelMessage[], count: number | "all"): ModelMessage[] {
  if (count !== "all" && count <= 0) return [];
  const starts = turnStarts(thread);
  if (starts.length === 0) return [];
  const from = count === "all" ? starts[0]! : starts[Math.max(0, starts.length - count)]!;
  return dropUnansweredToolCalls(structuredClone(thread.slice(from)));
}

/** Indices of user messages that begin a turn. */
export function turnStarts(thread: readonly ModelMessage[]): number[] {
  const starts: number[] = [];
  const open = new Set<string>();
  thread.forEach((message, index) => {
    if (message.role === "assistant" && typeof message.content !== "string") {
      for (const part of message.content) if (part.type === "tool-call") open.add(part.id);
    } else if (message.role === "tool") {
      for (const part of message.content) open.delete(part.toolCallId);
    } else if (message.role === "user" && open.size === 0) {
      starts.push(index);
    }
  });
  return starts;
}

function dropUnansweredToolCalls(messages: ModelMessage[]): ModelMessage[] {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role === "tool") for (const part of message.content) answered.add(part.toolCallId);
  }
  const kept: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") {
      kept.push(message);
      continue;
    }
    const content = message.content.filter((part) => part.type !== "tool-call" || answered.has(part.id));
    if (content.length === content.filter((part) => part.type === "reasoning").length) continue;
    kept.push({ ...message, content });
  }
  return kept;
}
