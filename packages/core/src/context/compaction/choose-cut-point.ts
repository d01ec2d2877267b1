import type { ModelMessage } from "@nyzhi/provider";

/**
 * Where to split a thread for compaction: messages before the returned index are summarised,
 * the rest are kept verbatim. The kept part never starts with a `tool` message, so no result
 * loses its call and no call (in a valid thread) loses its result.
 *
 * The kept part aims at `keepRecent` messages. It starts, in order of preference:
 * 1. at a user message at most `keepRecent` messages earlier (keep more to start at a turn);
 * 2. at the latest assistant message at or before the aim (a step boundary inside one long turn);
 * 3. at the earliest non-tool message after the aim (keep fewer).
 * Undefined when there is no place to cut (fewer than two messages).
 */
export function chooseCutIndex(thread: readonly ModelMessage[], keepRecent: number): number | undefined {
  const aim = Math.max(1, thread.length - Math.max(0, keepRecent));
  for (let index = aim; index >= Math.max(1, aim - keepRecent); index--) {
    if (thread[index]?.role === "user") return index;
  }
  for (let index = Math.min(aim, thread.length - 1); index >= 1; index--) {
    if (thread[index]?.role !== "tool") return index;
  }
  for (let index = aim + 1; index < thread.length; index++) {
    if (thread[index]?.role !== "tool") return index;
  }
  return undefined;
}

/** The spec's default: keep the last 6 messages of a thread longer than 20, else the last 4. */
export function defaultKeepRecent(threadLength: number): number {
  return threadLength > 20 ? 6 : 4;
}
