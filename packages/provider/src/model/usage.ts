/**
 * Token counts for one model call. `inputTokens` is the whole prompt, cached or not, so
 * `inputTokens - cacheReadTokens - cacheWriteTokens` is the uncached part (the vendors disagree
 * on this; the adapters normalise to it).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Prompt tokens served from the vendor's cache. */
  cacheReadTokens: number;
  /** Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens: number;
  /** Output tokens spent on reasoning, when the vendor reports them (already in `outputTokens`). */
  reasoningTokens?: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Adds two usages field by field (for totals across the calls of a session). */
export function addUsage(left: Usage, right: Usage): Usage {
  const sum: Usage = {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cacheReadTokens: left.cacheReadTokens + right.cacheReadTokens,
    cacheWriteTokens: left.cacheWriteTokens + right.cacheWriteTokens,
  };
  if (left.reasoningTokens !== undefined || right.reasoningTokens !== undefined) {
    sum.reasoningTokens = (left.reasoningTokens ?? 0) + (right.reasoningTokens ?? 0);
  }
  return sum;
}

/** What `total` holds beyond `part`, field by field (what a run added to a session's total). */
export function subtractUsage(total: Usage, part: Usage): Usage {
  const difference: Usage = {
    inputTokens: total.inputTokens - part.inputTokens,
    outputTokens: total.outputTokens - part.outputTokens,
    cacheReadTokens: total.cacheReadTokens - part.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens - part.cacheWriteTokens,
  };
  if (total.reasoningTokens !== undefined)
    difference.reasoningTokens = total.reasoningTokens - (part.reasoningTokens ?? 0);
  return difference;
}

/** The total of many usages; `emptyUsage()` for none. */
export function sumUsage(usages: Iterable<Usage>): Usage {
  let total = emptyUsage();
  for (const usage of usages) total = addUsage(total, usage);
  return total;
}
