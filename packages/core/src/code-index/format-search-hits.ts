/** One result of `semantic_search`, from the index or from the full-text fallback. */
export interface SearchHit {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  symbol: string | undefined;
  score: number;
  snippet: string;
  source: "index" | "full-text";
}

/** Lines of a snippet shown per result. */
export const SNIPPET_LINES = 12;

/**
 * The tool's output (spec §4.5, with the symbol added): `N. path (lines a-b, symbol: S, score: 0.123)`
 * then the snippet's first 12 lines, results separated by `\n---\n`.
 */
export function formatSearchHits(hits: readonly SearchHit[]): string {
  return hits
    .map((hit, position) => {
      const symbol = hit.symbol ? `, symbol: ${hit.symbol}` : "";
      const header = `${position + 1}. ${hit.path} (lines ${hit.startLine}-${hit.endLine}${symbol}, score: ${hit.score.toFixed(3)})`;
      const lines = hit.snippet.split("\n");
      const shown = lines.slice(0, SNIPPET_LINES).join("\n");
      const more = lines.length > SNIPPET_LINES ? `\n  ... (${lines.length - SNIPPET_LINES} more lines)` : "";
      return `${header}\n${shown}${more}`;
    })
    .join("\n---\n");
}
