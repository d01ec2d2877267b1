/** How well a candidate matches a query, and which characters matched (for highlighting). */
export interface FuzzyMatch {
  score: number;
  /** Indexes (UTF-16) of the matched characters in the candidate. */
  positions: number[];
}

const WORD_SEPARATORS = new Set(["/", "-", "_", ".", " ", ":", "@"]);

function isWordStart(candidate: string, index: number): boolean {
  if (index === 0) return true;
  const previous = candidate[index - 1]!;
  if (WORD_SEPARATORS.has(previous)) return true;
  const current = candidate[index]!;
  return previous === previous.toLowerCase() && current !== current.toLowerCase();
}

/**
 * Matches a query against a candidate as a case-insensitive subsequence. Consecutive matches,
 * matches at word starts (after `/ - _ . :`, or a camelCase hump) and a matching prefix score
 * higher; longer candidates score a little lower. Undefined when the query is not a subsequence.
 */
export function fuzzyMatch(query: string, candidate: string): FuzzyMatch | undefined {
  if (query === "") return { score: 0, positions: [] };
  const lowerQuery = query.toLowerCase();
  const lowerCandidate = candidate.toLowerCase();
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  for (let q = 0; q < lowerQuery.length; q++) {
    const character = lowerQuery[q]!;
    // Prefer the next occurrence at a word start, else the next occurrence at all.
    let index = -1;
    for (
      let i = lowerCandidate.indexOf(character, from);
      i >= 0;
      i = lowerCandidate.indexOf(character, i + 1)
    ) {
      if (index < 0) index = i;
      if (isWordStart(candidate, i) || i === positions.at(-1)! + 1) {
        index = i;
        break;
      }
    }
    if (index < 0) return undefined;
    score += 1;
    if (positions.length > 0 && index === positions.at(-1)! + 1) score += 5;
    if (isWordStart(candidate, index)) score += 8;
    positions.push(index);
    from = index + 1;
  }
  const whole = contiguousMatch(candidate, lowerCandidate, lowerQuery);
  const best = whole && whole.score > score ? whole : { score, positions };
  if (lowerCandidate.startsWith(lowerQuery)) best.score += 20;
  if (lowerCandidate === lowerQuery) best.score += 50;
  return { score: best.score - candidate.length * 0.1, positions: best.positions };
}

/**
 * The query as one run of characters in the candidate, at a word start if it is found at one:
 * `gpt` in `github-copilot/gpt-5.2` is the model's name, not the g, p and t scattered over
 * `github-copilot/gemini-3.1-pro`.
 */
function contiguousMatch(
  candidate: string,
  lowerCandidate: string,
  lowerQuery: string,
): { score: number; positions: number[] } | undefined {
  let found = -1;
  for (let i = lowerCandidate.indexOf(lowerQuery); i >= 0; i = lowerCandidate.indexOf(lowerQuery, i + 1)) {
    if (found < 0) found = i;
    if (isWordStart(candidate, i)) {
      found = i;
      break;
    }
  }
  if (found < 0) return undefined;
  const length = lowerQuery.length;
  const score = length + 5 * (length - 1) + (isWordStart(candidate, found) ? 8 : 0) + 10;
  return { score, positions: Array.from({ length }, (_, offset) => found + offset) };
}

export interface FuzzyResult<T> extends FuzzyMatch {
  item: T;
}

/** The items matching `query`, best first (ties keep their order); all items when it is empty. */
export function fuzzyFilter<T>(
  items: readonly T[],
  query: string,
  textOf: (item: T) => string,
  limit = Number.POSITIVE_INFINITY,
): FuzzyResult<T>[] {
  const results: (FuzzyResult<T> & { order: number })[] = [];
  items.forEach((item, order) => {
    const match = fuzzyMatch(query, textOf(item));
    if (match) results.push({ ...match, item, order });
  });
  if (query !== "") results.sort((left, right) => right.score - left.score || left.order - right.order);
  return results.slice(0, limit).map(({ order: _order, ...result }) => result);
}
