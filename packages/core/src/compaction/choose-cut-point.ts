import type { ModelMessage } from "@nyzhi/provider";
import { previousSummaryOf } from "./summary-prompt.js";

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

/** A thread split for compaction (see `splitForCompaction`). */
export interface CompactionSplit {
  /** Where the kept tail starts (`chooseCutIndex`). */
  cut: number;
  /** The messages the summary replaces, in order (an earlier summary message included). */
  summarised: ModelMessage[];
  /** The messages kept verbatim after the summary: the pinned user messages, then the tail from `cut`. */
  kept: ModelMessage[];
  /** Indices (all before `cut`) of the user messages carried into `kept` past the cut. */
  pinned: number[];
}

/**
 * Splits a thread at `chooseCutIndex`, but never summarises the user's latest request: the latest
 * user message (and user messages right before it, e.g. ones that arrived at the turn's first
 * step) stays verbatim. When the cut lands after it, inside a long turn, that message is carried
 * past the cut to the head of the kept part, so the thread becomes `[summary, request, ...tail]`.
 * It is a user message, so it never sits between a call and its result, and the tail still never
 * starts with a tool result. Compaction summaries are not requests and are never pinned.
 * Undefined when there is no place to cut.
 */
export function splitForCompaction(
  thread: readonly ModelMessage[],
  keepRecent: number,
  request?: ModelMessage,
): CompactionSplit | undefined {
  const cut = chooseCutIndex(thread, keepRecent);
  if (cut === undefined) return undefined;
  const pinned = pinnedRequests(thread, request).filter((index) => index < cut);
  return {
    cut,
    summarised: thread.slice(0, cut).filter((_message, index) => !pinned.includes(index)),
    kept: [...pinned.map((index) => thread[index]!), ...thread.slice(cut)],
    pinned,
  };
}

/**
 * The user messages to keep verbatim: with the turn's `request` (by identity) found in the thread,
 * it and every user message after it (mail from teammates, follow-ups that arrived mid-turn);
 * else the latest user run.
 */
function pinnedRequests(thread: readonly ModelMessage[], request: ModelMessage | undefined): number[] {
  const at = request === undefined ? -1 : thread.indexOf(request);
  if (at < 0) return latestUserRun(thread);
  const pinned = new Set(latestUserRun(thread));
  for (let index = at; index < thread.length; index++) if (isUserRequest(thread[index])) pinned.add(index);
  return [...pinned].sort((left, right) => left - right);
}

/** Indices of the latest user message and the user messages right before it, oldest first. */
export function latestUserRun(thread: readonly ModelMessage[]): number[] {
  let last = thread.length - 1;
  while (last >= 0 && thread[last]?.role !== "user") last--;
  const run: number[] = [];
  for (let index = last; index >= 0 && isUserRequest(thread[index]); index--) run.unshift(index);
  return run;
}

function isUserRequest(message: ModelMessage | undefined): boolean {
  return message?.role === "user" && previousSummaryOf(message) === undefined;
}

/** The spec's default: keep the last 6 messages of a thread longer than 20, else the last 4. */
export function defaultKeepRecent(threadLength: number): number {
  return threadLength > 20 ? 6 : 4;
}
