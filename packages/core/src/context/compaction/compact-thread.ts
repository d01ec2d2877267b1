import { collectStream, type LanguageModel, type ModelMessage, type ModelRequest } from "@nyzhi/provider";
import { chooseCutIndex, defaultKeepRecent } from "./choose-cut-point.js";
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
  /** Messages to keep verbatim (more or fewer to land on a safe cut). Default `defaultKeepRecent`. */
  keepRecent?: number;
  /** `agent.compact_instructions`. */
  instructions?: string | undefined;
  signal?: AbortSignal;
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
  /** Messages kept verbatim after the summary. */
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
}

/**
 * Full compaction: asks the model for an eight-section summary of the older part of the thread
 * (merging the previous summary when the thread already starts with one), saves the whole thread
 * to a history file, and returns `[summary message, ...kept]`. The cut never separates a tool call
 * from its result (see `chooseCutIndex`). Throws a `CompactionError`; the input is never changed.
 */
export async function compactThread(options: CompactThreadOptions): Promise<CompactThreadResult> {
  const { thread } = options;
  const cut = chooseCutIndex(thread, options.keepRecent ?? defaultKeepRecent(thread.length));
  if (cut === undefined) {
    throw new CompactionError("compaction_too_short", "The conversation is too short to compact.");
  }
  const older = thread.slice(0, cut);
  const kept = thread.slice(cut);
  const previousSummary = previousSummaryOf(older[0]);
  const toSummarise = previousSummary === undefined ? older : older.slice(1);
  const prompt = buildSummaryPrompt(toSummarise, {
    previousSummary,
    instructions: options.instructions,
    estimatedTokens: estimateTokens(undefined, toSummarise),
  });
  const summary = await requestSummary(options, prompt);
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
      messagesSummarised: older.length,
    },
  };
}

async function requestSummary(options: CompactThreadOptions, prompt: string): Promise<string> {
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
    throw new CompactionError("compaction_aborted", "Compaction was cancelled.", { cause: response.error });
  }
  if (response.error) {
    throw new CompactionError("compaction_failed", `Compaction failed: ${response.error.message}`, {
      cause: response.error,
    });
  }
  const summary = response.text.trim();
  if (summary === "") {
    throw new CompactionError("compaction_failed", "Compaction failed: the model returned an empty summary.");
  }
  return summary;
}
