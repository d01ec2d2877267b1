import { rm } from "node:fs/promises";
import type { LanguageModel, ModelMessage, ModelRequest, Usage } from "@nyzhi/provider";
import {
  type CompactionPlan,
  type CompactionStats,
  compactThread,
  planCompaction,
} from "./compact-thread.js";
import { CompactionError } from "./compaction-error.js";
import { contextDirs } from "./context-dirs.js";
import { compactionTarget, estimateMessageTokens, estimateTokens } from "./estimate-tokens.js";
import { dedupRepeatedReads, microcompactToolResults } from "./progressive-compaction.js";

export interface CompactIfNeededOptions {
  model: LanguageModel;
  system: ModelRequest["system"];
  thread: readonly ModelMessage[];
  /** The model's context window, in tokens (`findModel(...)?.contextWindow`). */
  contextWindow: number;
  /** `agent.auto_compact_threshold`. Default 0.85. */
  threshold?: number;
  /** Project root; files go under `<root>/.nyzhi/context/`. */
  projectRoot: string;
  sessionId?: string;
  /** `agent.compact_instructions`. */
  instructions?: string | undefined;
  keepRecent?: number;
  signal?: AbortSignal;
  /**
   * Tokens every request carries besides the system prompt and the thread — the tool definitions —
   * which the threshold must count too (they were ~9k tokens of a fresh `nyz exec`).
   */
  fixedTokens?: number;
  /** The message that started the current turn (see `CompactThreadOptions.request`). */
  request?: ModelMessage | undefined;
}

/** One step that ran, for a host's `compaction: …` line. */
export type CompactionStep =
  | { kind: "dedup-reads"; changed: number; savedTokens: number }
  | { kind: "microcompact"; changed: number; savedTokens: number }
  | { kind: "full"; stats: CompactionStats; historyPath: string; usage: Usage | undefined }
  /** A summary was made but was not smaller than what it would replace, so the thread kept its messages. */
  | { kind: "full-discarded"; stats: CompactionStats; usage: Usage | undefined };

export interface CompactIfNeededResult {
  /** The thread to continue with (the input itself when nothing ran). */
  thread: ModelMessage[];
  steps: CompactionStep[];
  /** Estimates, in tokens, before and after. */
  before: number;
  after: number;
  /**
   * What the summary request cost when one ran (kept or discarded), as the provider reported it;
   * undefined when no model call was made or none was reported. The caller adds it to the turn's
   * usage and cost: it is not in any step's usage otherwise.
   */
  usage: Usage | undefined;
}

/**
 * The least new material, in estimated tokens, worth a full summary: below it, an eight-section
 * summary is not expected to be smaller than what it replaces.
 */
export const MIN_SUMMARISABLE_TOKENS = 400;

/**
 * Full compactions that did not make their thread smaller, by the thread's first message (which
 * stays the same object until a full compaction is kept): the estimated new material they had.
 * Another attempt on that thread waits for twice as much, so a summariser whose summaries are
 * too long is asked a few times in a long run, not at every step.
 */
const unhelpfulAttempts = new WeakMap<ModelMessage, number>();

/**
 * Runs compaction only as far as needed, checking the estimate after each step: nothing while it
 * is under `contextWindow × threshold`; then the cheap steps (dedup repeated reads, offload old
 * large tool results); then a full summary, but only when it can shrink the thread (see
 * `summaryCanShrink`). A summary whose result is not smaller than its input is discarded (step
 * `full-discarded`) and not retried until the thread has grown well past it. When nothing more
 * can be done the thread is returned still over the target, and the run goes on (the provider
 * may then report a context overflow). Call it before a model request (turn start or step
 * boundary), when every tool call already has its result. A failed full compaction throws a
 * `CompactionError`; the steps before it are lost with it, so the caller keeps its thread.
 */
export async function compactIfNeeded(options: CompactIfNeededOptions): Promise<CompactIfNeededResult> {
  const target = compactionTarget(options);
  const fixed = options.fixedTokens ?? 0;
  const before = estimateTokens(options.system, options.thread) + fixed;
  const steps: CompactionStep[] = [];
  let thread = [...options.thread];
  let usage: Usage | undefined;
  const estimate = () => estimateTokens(options.system, thread) + fixed;
  if (!(options.contextWindow > 0) || before <= target) {
    return { thread, steps, before, after: before, usage };
  }

  const dedup = dedupRepeatedReads(thread);
  if (dedup.changed > 0) {
    thread = dedup.thread;
    steps.push({ kind: "dedup-reads", changed: dedup.changed, savedTokens: dedup.savedTokens });
  }
  if (estimate() > target) {
    const dirs = contextDirs(options.projectRoot);
    const micro = await microcompactToolResults(thread, { dir: dirs.toolResults });
    if (micro.changed > 0) {
      thread = micro.thread;
      steps.push({ kind: "microcompact", changed: micro.changed, savedTokens: micro.savedTokens });
    }
  }
  const plan = estimate() > target ? planCompaction(thread, options.keepRecent, options.request) : undefined;
  if (plan && summaryCanShrink(thread, plan)) {
    const full = await compactThread({
      model: options.model,
      system: options.system,
      thread,
      historyDir: contextDirs(options.projectRoot).history,
      ...(options.keepRecent !== undefined ? { keepRecent: options.keepRecent } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      instructions: options.instructions,
      request: options.request,
    }).catch((error: unknown) => {
      // A summary request that failed (a provider error, an empty summary) is not asked — and paid
      // for — again at every step: the same back-off as a summary that did not help.
      if (error instanceof CompactionError && !options.signal?.aborted) {
        unhelpfulAttempts.set(thread[0]!, estimateTokens(undefined, plan.fresh));
      }
      throw error;
    });
    usage = full.usage;
    if (full.stats.after < full.stats.before) {
      thread = full.thread;
      steps.push({ kind: "full", stats: full.stats, historyPath: full.historyPath, usage: full.usage });
    } else {
      // The thread keeps its messages, so the history file saved for this attempt points nowhere.
      await rm(full.historyPath, { force: true });
      unhelpfulAttempts.set(thread[0]!, estimateTokens(undefined, plan.fresh));
      steps.push({ kind: "full-discarded", stats: full.stats, usage: full.usage });
    }
  }
  return { thread, steps, before, after: estimate(), usage };
}

/**
 * Whether a full summary of `plan` can make the thread smaller. The summary replaces an earlier
 * summary (which it must carry on, so it is at least about as long) plus the new material, so it
 * only pays when the new material outweighs a summary: more than `MIN_SUMMARISABLE_TOKENS`, more
 * than the earlier summary, and more than twice what an earlier attempt on this thread summarised
 * without shrinking it. False when there is no new material at all (the part before the cut is
 * only the earlier summary, or only the latest request, which is kept anyway).
 */
export function summaryCanShrink(thread: readonly ModelMessage[], plan: CompactionPlan): boolean {
  if (plan.fresh.length === 0) return false;
  const fresh = estimateTokens(undefined, plan.fresh);
  const previous = plan.previousSummary === undefined ? 0 : estimateMessageTokens(plan.summarised[0]!);
  const failed = thread[0] === undefined ? 0 : (unhelpfulAttempts.get(thread[0]) ?? 0);
  return fresh > Math.max(MIN_SUMMARISABLE_TOKENS, previous, 2 * failed);
}

/** The one-line report of a step, as the Rust port printed it. */
export function describeCompactionStep(step: CompactionStep): string {
  switch (step.kind) {
    case "dedup-reads":
      return `compaction: collapsed ${step.changed} repeated file reads (saved ~${step.savedTokens} tokens)`;
    case "microcompact":
      return `compaction: moved ${step.changed} old tool outputs to files (saved ~${step.savedTokens} tokens)`;
    case "full":
      return `Full compaction complete: ${step.stats.before} → ${step.stats.after} tokens (${step.stats.messagesKept} messages kept)`;
    case "full-discarded":
      return `Full compaction discarded: the summary would not shrink the conversation (${step.stats.before} → ${step.stats.after} tokens); kept it as it was`;
  }
}
