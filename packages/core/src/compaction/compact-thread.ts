import {
  collectStream,
  type LanguageModel,
  type ModelMessage,
  type ModelRequest,
  type Usage,
} from "@nyzhi/provider";
import { type CompactionSplit, defaultKeepRecent, splitForCompaction } from "./choose-cut-point.js";
import { CompactionError } from "./compaction-error.js";
import { estimateTokens } from "./estimate-tokens.js";
import { saveThreadHistory } from "./history-file.js";
import {
  buildSummaryPrompt,
  previousSummaryOf,
  SUMMARISER_SYSTEM,
  summaryMessage,
} from "./summary-prompt.js";

/** Cap on the summary's length, in tokens (the spec's `max_tokens 4096`). */
export const SUMMARY_MAX_TOKENS = 4096;

export interface CompactThreadOptions {
  model: LanguageModel;
  /** The agent's system prompt; only used for the before/after estimates. */
  system: ModelRequest["system"];
  thread: readonly ModelMessage[];
  /**
   * Messages to keep verbatim (more or fewer to land on a safe cut; the latest user request is
   * kept in any case). Default `defaultKeepRecent`.
   */
  keepRecent?: number;
  /** `agent.compact_instructions`. */
  instructions?: string | undefined;
  signal?: AbortSignal;
  /**
   * The message that started the current turn (by identity): kept verbatim with every user
   * message after it, even when others (teammate mail) arrived later in the turn.
   */
  request?: ModelMessage | undefined;
  /** Where the full history goes, usually `contextDirs(root).history`. */
  historyDir: string;
  /** Names the history file. Default `session`. */
  sessionId?: string;
  /** Default `SUMMARY_MAX_TOKENS`. */
  maxSummaryTokens?: number;
}

/** Token estimates (see `estimateTokens`) and message counts of one compaction. */
export interface CompactionStats {
  before: number;
  after: number;
  /** Messages kept verbatim after the summary (a latest request carried past the cut included). */
  messagesKept: number;
  /** Messages replaced by the summary (an earlier summary message included). */
  messagesSummarised: number;
}

export interface CompactThreadResult {
  /** The summary message followed by the kept messages. */
  thread: ModelMessage[];
  summary: string;
  /** The JSONL file holding the whole thread as it was before. */
  historyPath: string;
  stats: CompactionStats;
  /**
   * What the summary request cost, as the provider reported it (undefined when it reported
   * nothing). Not part of any turn's usage yet: the caller adds it to its totals and cost.
   */
  usage: Usage | undefined;
}

/** What a full compaction of a thread would do, before any model call (see `planCompaction`). */
export interface CompactionPlan extends CompactionSplit {
  /** The text of the earlier summary at the head of the summarised part, if there is one. */
  previousSummary: string | undefined;
  /** The summarised messages other than that earlier summary: the new material. */
  fresh: ModelMessage[];
}

/**
 * Where a full compaction would cut (`splitForCompaction`) and what it would summarise.
 * Undefined when there is no place to cut. `fresh` is empty when only an earlier summary would be
 * summarised, which cannot make the thread smaller.
 */
export function planCompaction(
  thread: readonly ModelMessage[],
  keepRecent: number = defaultKeepRecent(thread.length),
  request?: ModelMessage,
): CompactionPlan | undefined {
  const split = splitForCompaction(thread, keepRecent, request);
  if (split === undefined) return undefined;
  const previousSummary = previousSummaryOf(split.summarised[0]);
  const fresh = previousSummary === undefined ? split.summarised : split.summarised.slice(1);
  return { ...split, previousSummary, fresh };
}

/**
 * Full compaction: asks the model for an eight-section summary of the older part of the thread
 * (merging the previous summary when the thread already starts with one), saves the whole thread
 * to a history file, and returns `[summary message, ...kept]`. The cut never separates a tool call
 * from its result, and the latest user request is always kept (see `splitForCompaction`). It does
 * not check that the result is smaller (`compactIfNeeded` does). Throws a `CompactionError`
 * (`compaction_too_short` when there is nothing but an earlier summary to summarise); the input
 * is never changed.
 */
export async function compactThread(options: CompactThreadOptions): Promise<CompactThreadResult> {
  const { thread } = options;
  const plan = planCompaction(thread, options.keepRecent, options.request);
  if (plan === undefined) {
    throw new CompactionError("compaction_too_short", "The conversation is too short to compact.");
  }
  if (plan.fresh.length === 0) {
    throw new CompactionError(
      "compaction_too_short",
      "Nothing to compact: the older part of the conversation is only the previous summary.",
    );
  }
  const { kept } = plan;
  // The transcript shows a request carried past the cut where it was, marked as kept.
  const pinned = new Set(plan.pinned.map((index) => thread[index]!));
  const earlier = plan.previousSummary === undefined ? undefined : plan.summarised[0];
  const transcript = thread.slice(0, plan.cut).filter((message) => message !== earlier);
  const prompt = buildSummaryPrompt(transcript, {
    previousSummary: plan.previousSummary,
    instructions: options.instructions,
    estimatedTokens: estimateTokens(undefined, plan.fresh),
    keptVerbatim: pinned,
  });
  const { summary, usage } = await requestSummary(options, prompt);
  const historyPath = await saveThreadHistory(thread, {
    dir: options.historyDir,
    sessionId: options.sessionId ?? "session",
  });
  const compacted = [summaryMessage(summary, historyPath), ...kept];
  return {
    thread: compacted,
    summary,
    historyPath,
    stats: {
      before: estimateTokens(options.system, thread),
      after: estimateTokens(options.system, compacted),
      messagesKept: kept.length,
      messagesSummarised: plan.summarised.length,
    },
    usage,
  };
}

async function requestSummary(
  options: CompactThreadOptions,
  prompt: string,
): Promise<{ summary: string; usage: Usage | undefined }> {
  const request: ModelRequest = {
    system: SUMMARISER_SYSTEM,
    messages: [{ role: "user", content: prompt }],
    maxTokens: options.maxSummaryTokens ?? SUMMARY_MAX_TOKENS,
    temperature: 0,
  };
  const response = await collectStream(
    options.model.doStream(request, options.signal ? { signal: options.signal } : {}),
  );
  if (options.signal?.aborted) {
    throw new CompactionError("compaction_aborted", "Compaction was cancelled.", {
      cause: response.error,
      usage: response.usage,
    });
  }
  if (response.error) {
    throw new CompactionError("compaction_failed", `Compaction failed: ${response.error.message}`, {
      cause: response.error,
      usage: response.usage,
    });
  }
  const summary = response.text.trim();
  if (summary === "") {
    throw new CompactionError(
      "compaction_failed",
      "Compaction failed: the model returned an empty summary.",
      {
        usage: response.usage,
      },
    );
  }
  return { summary, usage: response.usage };
}
