import { NyzhiError } from "@nyzhi/config";
import type { ModelMessage } from "@nyzhi/provider";

export interface ThreadCheck {
  ok: boolean;
  /** One line per problem, naming the message index and the call id. */
  problems: string[];
}

/**
 * Checks the pairing rule every vendor enforces: an assistant message's tool calls are answered
 * by the `tool` message right after it, with exactly one result per call and nothing else; a
 * `tool` message never appears anywhere else. Compaction and history edits must keep this.
 */
export function validateThread(thread: readonly ModelMessage[]): ThreadCheck {
  const problems: string[] = [];
  thread.forEach((message, index) => {
    if (message.role === "tool") {
      const previous = thread[index - 1];
      if (previous?.role !== "assistant" || toolCallIds(previous).length === 0) {
        const ids = message.content.map((part) => part.toolCallId).join(", ");
        problems.push(`message ${index}: tool results (${ids}) without a preceding assistant tool call`);
      }
      return;
    }
    if (message.role !== "assistant") return;
    const calls = toolCallIds(message);
    if (calls.length === 0) return;
    const next = thread[index + 1];
    const results = next?.role === "tool" ? next.content.map((part) => part.toolCallId) : [];
    for (const id of calls) {
      const count = results.filter((resultId) => resultId === id).length;
      if (count === 0) problems.push(`message ${index}: tool call ${id} has no result in the next message`);
      if (count > 1) problems.push(`message ${index + 1}: tool call ${id} has ${count} results`);
    }
    for (const id of new Set(results)) {
      if (!calls.includes(id)) problems.push(`message ${index + 1}: tool result ${id} has no matching call`);
    }
  });
  return { ok: problems.length === 0, problems };
}

/** Throws a `NyzhiError` (`invalid_thread`) listing every problem `validateThread` found. */
export function assertValidThread(thread: readonly ModelMessage[]): void {
  const check = validateThread(thread);
  if (!check.ok) throw new NyzhiError("invalid_thread", `Invalid thread:\n${check.problems.join("\n")}`);
}

/** Ids of the tool calls in an assistant message. */
export function toolCallIds(message: ModelMessage): string[] {
  if (message.role !== "assistant" || typeof message.content === "string") return [];
  return message.content.flatMap((part) => (part.type === "tool-call" ? [part.id] : []));
}
