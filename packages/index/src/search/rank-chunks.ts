import { abbreviationWords, splitIdentifiersIn } from "../store/split-identifiers.js";

/**
 * Full-text ranking on top of LanceDB's BM25: what the query keeps, how the fields weigh, and the
 * re-ranking of the candidates (near-duplicates folded, prose below code, definitions of the names
 * a query mentions first). Each step is kept because bench/retrieval's figures showed it helps;
 * steps that were tried and dropped (heavier name or path boosts, file-level aggregation for
 * "where" questions, pseudo-relevance feedback) are in docs/performance.md with their figures.
 */

/** Boosts of the full-text columns, in FULL_TEXT_COLUMNS order: body, symbol name, path, comments. */
export const FIELD_BOOSTS = [1, 1, 1, 1] as const;

/**
 * Words of a code-search question that name no code: how people ask ("where is … implemented",
 * "the function that …"), not what they ask about. LanceDB's English stop words (the, is, …) are
 * dropped by its tokenizer on both sides already.
 */
const QUESTION_WORDS = new Set(
  (
    "where how what which who why when whose does do did done is are was were be been being can could should would " +
    "code function functions method methods implemented implementation implement handled handle handles happens " +
    "located defined define definition logic place part file files find"
  ).split(" "),
);

/** The query text for the full-text index: its words minus question words, plus the words of its compound identifiers. */
export function fullTextQuery(query: string): string {
  const trimmed = query.trim();
  if (!/[\p{L}\p{N}]/u.test(trimmed)) return "";
  const kept = trimmed
    .split(/\s+/)
    .filter((word) => !QUESTION_WORDS.has(word.toLowerCase().replace(/[^\p{L}\p{N}_$]/gu, "")));
  const words = kept.length > 0 ? kept.join(" ") : trimmed;
  const compounds = splitIdentifiersIn(words);
  const expansions = abbreviationWords([
    ...words.toLowerCase().split(/[^a-z0-9]+/),
    ...compounds.join(" ").split(" "),
  ]);
  return [words, ...compounds, ...(expansions ? [expansions] : [])].join(" ");
}

/** What the re-ranking reads of a candidate. */
export interface RankedRow {
  path: string;
  symbol: string | null;
  kind: string;
  language: string;
  content: string;
  content_hash?: string;
  /** Higher is better (BM25, or fused). */
  score: number;
}

/** Languages of prose and data, not code: their chunks count less for a code question. */
const PROSE_LANGUAGES = new Set(["markdown", "text", "json", "yaml", "toml", "xml", "html", "css"]);
export const PROSE_WEIGHT = 0.5;
/** A query that asks for prose keeps it at full weight. */
const ASKS_FOR_PROSE = /\b(readme|docs?|documentation|changelog|guide|markdown|config(uration)? file)\b/i;

/**
 * Re-ranks candidates (best first): identical chunks folded (same content, or the same symbol of
 * the same file: overloads, parts of a split function), prose below code, then the definitions of
 * identifiers the query names.
 */
export function rerank<T extends RankedRow>(rows: readonly T[], query: string): T[] {
  const asksForProse = ASKS_FOR_PROSE.test(query);
  const scored = foldDuplicates(rows).map((row) => ({
    row,
    score: row.score * (!asksForProse && PROSE_LANGUAGES.has(row.language) ? PROSE_WEIGHT : 1),
  }));
  scored.sort((left, right) => right.score - left.score);
  return definitionsFirst(
    scored.map((entry) => entry.row),
    query,
  );
}

/** Keeps the first of rows with the same content, and the first of rows with the same file and symbol. */
export function foldDuplicates<T extends RankedRow>(rows: readonly T[]): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const row of rows) {
    const keys = [`content:${row.content_hash ?? row.content}`];
    if (row.symbol) keys.push(`symbol:${row.path}#${row.symbol}`);
    if (keys.some((key) => seen.has(key))) continue;
    for (const key of keys) seen.add(key);
    kept.push(row);
  }
  return kept;
}

/**
 * When the query is one identifier, chunks that define it (`symbol` is it, or ends in `.it`)
 * come first, then chunks that contain it as a whole word, each group in ranked order. When a
 * query of several words names an identifier (a compound word: `parseConfig`, `max_bytes`, or a
 * capitalised type), its definitions come first. Someone typing an exact name wants where it is.
 */
export function definitionsFirst<T extends { symbol: string | null; content: string }>(
  rows: readonly T[],
  query: string,
): T[] {
  const identifier = query.trim();
  if (/^[A-Za-z_$][\w$]*$/.test(identifier)) return exactMatchesFirst(rows, identifier);
  const named = query
    .split(/[^\w$]+/)
    .filter(
      (word) =>
        /^[A-Za-z_$][\w$]*$/.test(word) && (/[a-z][A-Z]|_/.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word)),
    );
  if (named.length === 0) return [...rows];
  const defines = (row: T) =>
    named.some((name) => row.symbol === name || row.symbol?.endsWith(`.${name}`) === true);
  return [...rows.filter(defines), ...rows.filter((row) => !defines(row))];
}

/** A one-identifier query: its definitions, then chunks holding it as a whole word, then the rest. */
export function exactMatchesFirst<T extends { symbol: string | null; content: string }>(
  rows: readonly T[],
  identifier: string,
): T[] {
  const word = new RegExp(`(?<![\\w$])${identifier.replace(/\$/g, "\\$")}(?![\\w$])`);
  const tier = (row: T): number => {
    if (row.symbol === identifier || row.symbol?.endsWith(`.${identifier}`) === true) return 0;
    return word.test(row.content) ? 1 : 2;
  };
  return rows
    .map((row, position) => ({ row, position, tier: tier(row) }))
    .sort((left, right) => left.tier - right.tier || left.position - right.position)
    .map((entry) => entry.row);
}

/** Reciprocal rank fusion of ranked lists (keyed by `key`), the fused score in `score`. */
export function fuseRanks<T extends RankedRow>(
  lists: readonly (readonly T[])[],
  key: (row: T) => string,
  k = 60,
): T[] {
  const fused = new Map<string, { row: T; score: number }>();
  for (const list of lists) {
    list.forEach((row, position) => {
      const id = key(row);
      const entry = fused.get(id) ?? { row, score: 0 };
      entry.score += 1 / (k + position + 1);
      fused.set(id, entry);
    });
  }
  return [...fused.values()]
    .sort((left, right) => right.score - left.score)
    .map((entry) => ({ ...entry.row, score: entry.score }));
}
