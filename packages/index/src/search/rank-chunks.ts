import { abbreviationWords, splitIdentifiersIn } from "../store/split-identifiers.js";

/**
 * Full-text ranking on top of LanceDB's BM25: what the query keeps, how the fields weigh, and the
 * re-ranking of the candidates (near-duplicates and twins folded, prose and declarations below
 * code, imports and loose top-level code below functions, the functions the best hits call
 * raised, definitions of the names a query mentions first). Each step is kept because bench/retrieval's figures showed it helps; steps that were
 * tried and dropped (heavier name or path boosts, file-level aggregation for "where" questions,
 * pseudo-relevance feedback, synonym expansion from mined or WordNet lexicons, the thesaurus as a
 * second query-side clause or a column of its own, query word pairs, a signature column, a
 * within-file re-rank) are in
 * docs/performance.md with their figures.
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
 * Type declarations (`.d.ts`, `.d.cts`, `.d.mts`, Python stubs): a question about behaviour wants
 * the code that does it, so they count less, as prose does (a name the query spells out still
 * brings its declaration first, through `definitionsFirst`).
 */
const DECLARATION_FILE = /\.d\.[cm]?ts$|\.pyi$/;
export const DECLARATION_WEIGHT = 0.5;

/**
 * Code that is no unit of its own: a file's `preamble` (imports, license, module set-up) names
 * every symbol the file uses and does little itself, so it counts half; loose top-level code
 * (`module` chunks without a symbol: statements between definitions, a script's body) counts
 * three quarters. A question asks for what does the work, which is a function, method or type.
 * bench/retrieval: R@5 0.793 → 0.803 (tuning 0.813 → 0.826, held out unchanged), stable from
 * 0.4 to 0.6 for the preamble (docs/performance.md).
 */
export const PREAMBLE_WEIGHT = 0.5;
export const LOOSE_CODE_WEIGHT = 0.75;

function kindWeight(row: RankedRow, prose: boolean): number {
  if (prose) return 1;
  if (row.kind === "preamble") return PREAMBLE_WEIGHT;
  return row.kind === "module" && !row.symbol ? LOOSE_CODE_WEIGHT : 1;
}

/**
 * Re-ranks candidates (best first): identical chunks and twins folded (same content; the same
 * symbol of the same file: overloads, parts of a split function; the same symbol of a file's
 * twin: `index.d.ts` and `index.d.cts`), prose and declarations below code, preambles and loose
 * top-level code below units (`kindWeight`), the functions the best hits call raised
 * (`raiseCallees`), then the definitions of identifiers the query names.
 */
export function rerank<T extends RankedRow>(rows: readonly T[], query: string): T[] {
  const asksForProse = ASKS_FOR_PROSE.test(query);
  const scored = foldDuplicates(rows).map((row) => {
    const prose = PROSE_LANGUAGES.has(row.language);
    return {
      row,
      score:
        row.score *
        (!asksForProse && prose ? PROSE_WEIGHT : 1) *
        (DECLARATION_FILE.test(row.path) ? DECLARATION_WEIGHT : 1) *
        kindWeight(row, prose),
    };
  });
  scored.sort((left, right) => right.score - left.score);
  return definitionsFirst(raiseCallees(scored), query);
}

/** Hits whose calls count as the symbol graph's evidence. */
export const CALLING_HITS = 2;
/** What a candidate's score is multiplied by when one of the first CALLING_HITS hits calls it. */
export const CALLEE_BOOST = 1.3;
const CALL = /([A-Za-z_$][\w$]*)\s*\(/g;

/**
 * The symbol graph's boost: a candidate that one of the first CALLING_HITS hits calls (its name,
 * the last part of its symbol, is called as `name(` in that hit's code) gets its score multiplied
 * by CALLEE_BOOST, and the list is sorted again. A question about behaviour often finds the
 * function that starts it, whose helpers do the work under names that share no word with the
 * question. The calls are read from the hits' code at search time: two chunks, in any language.
 * `scored` must be sorted best first; returns the rows best first.
 */
export function raiseCallees<T extends RankedRow>(scored: readonly { row: T; score: number }[]): T[] {
  const called = new Set<string>();
  for (const { row } of scored.slice(0, CALLING_HITS)) {
    const own = lastPart(row.symbol);
    for (const match of row.content.matchAll(CALL)) {
      if (match[1] !== undefined && match[1] !== own) called.add(match[1]);
    }
  }
  return scored
    .map((entry, position) => {
      const name = lastPart(entry.row.symbol);
      const raised = position >= CALLING_HITS && name !== undefined && called.has(name);
      return { row: entry.row, score: raised ? entry.score * CALLEE_BOOST : entry.score, position };
    })
    .sort((left, right) => right.score - left.score || left.position - right.position)
    .map((entry) => entry.row);
}

const lastPart = (symbol: string | null): string | undefined => symbol?.split(".").pop() || undefined;

/** A path without its extensions (`lib/index.d.cts` → `lib/index`): files that are twins of one source. */
const TWIN_EXTENSION = /(\.d)?\.[cm]?[jt]sx?$|\.pyi?$/;

/**
 * Keeps the first of rows with the same content, the first of rows with the same file and symbol,
 * and the first of rows with the same symbol in twin files (`index.d.ts` / `index.d.cts`,
 * `x.js` / `x.mjs`, `x.py` / `x.pyi`).
 */
export function foldDuplicates<T extends RankedRow>(rows: readonly T[]): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const row of rows) {
    const keys = [`content:${row.content_hash ?? row.content}`];
    if (row.symbol) {
      keys.push(`symbol:${row.path}#${row.symbol}`);
      const stem = row.path.replace(TWIN_EXTENSION, "");
      if (stem !== row.path) keys.push(`twin:${stem}#${row.symbol}`);
    }
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
