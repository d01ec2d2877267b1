import { NyzhiError } from "@nyzhi/config";

/**
 * Why a full compaction did not happen. `compaction_too_short`: nothing could be summarised;
 * `compaction_failed`: the model call failed or returned no text (see `cause`);
 * `compaction_aborted`: the signal fired. The thread is left as it was in every case.
 */
export type CompactionErrorCode = "compaction_too_short" | "compaction_failed" | "compaction_aborted";

export class CompactionError extends NyzhiError {
  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
