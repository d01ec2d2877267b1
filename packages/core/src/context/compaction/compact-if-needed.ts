import type { LanguageModel, ModelMessage, ModelRequest } from "@nyzhi/provider";
import { type CompactionStats, compactThread } from "./compact-thread.js";
import { contextDirs } from "./context-dirs.js";
import { compactionTarget, estimateTokens } from "./estimate-tokens.js";
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
}

/** One step that ran, for a host's `compaction: …` line. */
export type CompactionStep =
  | { kind: "dedup-reads"; changed: number; savedTokens: number }
  | { kind: "microcompact"; changed: number; savedTokens: number }
  | { kind: "full"; stats: CompactionStats; historyPath: string };

export interface CompactIfNeededResult {
  /** The thread to continue with (the input itself when nothing ran). */
  thread: ModelMessage[];
  steps: CompactionStep[];
  /** Estimates, in tokens, before and after. */
  before: number;
  after: number;
}

/**
 * Runs compaction only as far as needed, checking the estimate after each step: nothing while it
 * is under `contextWindow × threshold`; then the cheap steps (dedup repeated reads, offload old
 * large tool results); then a full summary. Call it before a model request (turn start or step
 * boundary), when every tool call already has its result. A failed full compaction throws a
 * `CompactionError`; the steps before it are lost with it, so the caller keeps its thread.
 */
export async function compactIfNeeded(options: CompactIfNeededOptions): Promise<CompactIfNeededResult> {
  const target = compactionTarget(options);
  const before = estimateTokens(options.system, options.thread);
  const steps: CompactionStep[] = [];
  let thread = [...options.thread];
  const estimate = () => estimateTokens(options.system, thread);
  if (!(options.contextWindow > 0) || before <= target) return { thread, steps, before, after: before };

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
  if (estimate() > target) {
    const full = await compactThread({
      model: options.model,
      system: options.system,
      thread,
      historyDir: contextDirs(options.projectRoot).history,
      ...(options.keepRecent !== undefined ? { keepRecent: options.keepRecent } : {}),
      ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      instructions: options.instructions,
    });
    thread = full.thread;
    steps.push({ kind: "full", stats: full.stats, historyPath: full.historyPath });
  }
  return { thread, steps, before, after: estimate() };
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
  }
}
