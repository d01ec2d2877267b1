/**
 * Ctrl+R reverse search over the history: `query` as typed, `match` the index of the entry shown
 * (undefined when nothing matches). Matching is case-insensitive, newest first.
 */
export interface HistorySearch {
  query: string;
  match: number | undefined;
}

/** The newest entry at or before `from` (an index) that contains `query`. */
export function searchOlder(entries: readonly string[], query: string, from: number): number | undefined {
  const needle = query.toLowerCase();
  for (let index = Math.min(from, entries.length - 1); index >= 0; index--) {
    if (entries[index]!.toLowerCase().includes(needle)) return index;
  }
  return undefined;
}

/** The oldest entry at or after `from` that contains `query`. */
export function searchNewer(entries: readonly string[], query: string, from: number): number | undefined {
  const needle = query.toLowerCase();
  for (let index = Math.max(0, from); index < entries.length; index++) {
    if (entries[index]!.toLowerCase().includes(needle)) return index;
  }
  return undefined;
}

/** The search after the query changed: the newest match of the new query. */
export function withQuery(entries: readonly string[], query: string): HistorySearch {
  return { query, match: searchOlder(entries, query, entries.length - 1) };
}

/** Ctrl+R / ↑ again: the next older match, staying put when there is none. */
export function olderMatch(entries: readonly string[], search: HistorySearch): HistorySearch {
  if (search.match === undefined) return search;
  return { ...search, match: searchOlder(entries, search.query, search.match - 1) ?? search.match };
}

/** ↓: the next newer match, staying put when there is none. */
export function newerMatch(entries: readonly string[], search: HistorySearch): HistorySearch {
  if (search.match === undefined) return search;
  return { ...search, match: searchNewer(entries, search.query, search.match + 1) ?? search.match };
}
