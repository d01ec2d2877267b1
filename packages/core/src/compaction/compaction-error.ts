import { NyzhiError } from "@nyzhi/config";
import type { Usage } from "@nyzhi/provider";

/**
 * Why a full compaction did not happen. `compaction_too_short`: nothing could be summarised;
 * `compaction_failed`: the model call failed or returned no text (see `cause`);
 * `compaction_aborted`: the signal fired. The thread is left as it was in every case.
 */
export type CompactionErrorCode = "compaction_too_short" | "compaction_failed" | "compaction_aborted";

export class CompactionError extends NyzhiError {
  /** What the summary request cost when the provider reported it before the failure (e.g. an empty summary). */
  readonly usage: Usage | undefined;

  constructor(
    code: CompactionErrorCode,
    message: string,
    options?: { cause?: unknown; usage?: Usage | undefined },
  ) {
    super(code, message, options && "cause" in options ? { cause: options.cause } : undefined);
    this.usage = options?.usage;
  }
}
