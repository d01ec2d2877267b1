import picomatch from "picomatch";
import { pathInList, RESULT_COLUMNS, sqlString } from "../store/chunk-rows.js";
import type { ChunkTable } from "../store/chunk-table.js";
import { loadLanceDb } from "../store/load-lancedb.js";
import { splitIdentifiersIn } from "../store/split-identifiers.js";

export interface SearchOptions {
  /** Results wanted. Default 10, at most 100. */
  k?: number;
  /** Only files matching this glob (picomatch, relative to the project root: `packages/*\/src/**`). */
  path?: string;
  /** Only chunks of this language (`typescript`, `python`, …, `text`). */
  language?: string;
  signal?: AbortSignal;
}

/** One chunk found by a search. */
export interface SearchResult {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  symbol: string | undefined;
  language: string;
  kind: string;
  /**
   * Higher is better: the reciprocal-rank-fusion score of a hybrid search, the BM25 score of a
   * full-text one. Comparable only within one search.
   */
  score: number;
  /** The chunk's first lines (at most SNIPPET_LINES), with `…` when cut. */
  snippet: string;
  /** The chunk's whole text. */
  content: string;
}

export const DEFAULT_RESULTS = 10;
export const MAX_RESULTS = 100;
/** Chunks of one file in one result list. */
export const MAX_CHUNKS_PER_FILE = 3;
export const SNIPPET_LINES = 15;
/** Above this many matching files, a path glob filters results instead of the query. */
const MAX_PATHS_IN_FILTER = 5000;

interface ResultRow {
  path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  kind: string;
  language: string;
  content: string;
  _score?: number | null;
  _relevance_score?: number | null;
}

/**
 * Searches one table: full-text (BM25) on the content and its split identifiers, fused by
 * LanceDB's reciprocal rank fusion with a vector search when `queryVector` is given. At most
 * MAX_CHUNKS_PER_FILE chunks per file; `paths` (the index's files) resolves a path glob into an
 * exact filter.
 */
export async function searchChunks(
  table: ChunkTable,
  query: string,
  options: SearchOptions & { queryVector?: Float32Array | number[] | undefined; paths: readonly string[] },
): Promise<SearchResult[]> {
  const k = Math.min(Math.max(1, Math.floor(options.k ?? DEFAULT_RESULTS)), MAX_RESULTS);
  const text = fullTextQuery(query);
  if (text === "" && !options.queryVector) return [];
  const filter = buildFilter(options);
  if (filter === "nothing") return [];
  const { lancedb } = await loadLanceDb();
  const fetch = Math.max(k * 2 * MAX_CHUNKS_PER_FILE, 30) * (filter.postFilter ? 4 : 1);
  const match = new lancedb.MatchQuery(text || query, "text");
  let rows: ResultRow[];
  if (options.queryVector && table.dimensions !== undefined) {
    const reranker = await lancedb.rerankers.RRFReranker.create();
    let builder = table.table.query().nearestTo(options.queryVector).fullTextSearch(match).rerank(reranker);
    if (filter.where) builder = builder.where(filter.where);
    rows = (await builder
      .limit(fetch)
      .select([...RESULT_COLUMNS])
      .toArray()) as ResultRow[];
  } else {
    let builder = table.table.query().fullTextSearch(match);
    if (filter.where) builder = builder.where(filter.where);
    rows = (await builder
      .limit(fetch)
      .select([...RESULT_COLUMNS, "_score"])
      .toArray()) as ResultRow[];
  }
  options.signal?.throwIfAborted();
  const kept = filter.postFilter ? rows.filter((row) => filter.postFilter?.(row.path)) : rows;
  return capPerFile(exactMatchesFirst(kept, query), k).map(toResult);
}

/**
 * When the query is one identifier, chunks that define it (`symbol` is it, or ends in `.it`)
 * come first, then chunks that contain it as a whole word, each group in fused order. Rank fusion
 * can put a chunk that merely resembles the query (near in vector space, sharing a split word)
 * above the exact name, and someone typing an exact name wants where it is.
 */
export function exactMatchesFirst<T extends { symbol: string | null; content: string }>(
  rows: readonly T[],
  query: string,
): T[] {
  const identifier = query.trim();
  if (!/^[A-Za-z_$][\w$]*$/.test(identifier)) return [...rows];
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

/** The query plus the words of its compound identifiers: `parseConfig` also looks for `parse config`. */
export function fullTextQuery(query: string): string {
  const trimmed = query.trim();
  if (!/[\p{L}\p{N}]/u.test(trimmed)) return "";
  return [trimmed, ...splitIdentifiersIn(trimmed)].join(" ");
}

/** The first `k` rows keeping at most MAX_CHUNKS_PER_FILE per path, in rank order. */
export function capPerFile<T extends { path: string }>(rows: readonly T[], k: number): T[] {
  const perFile = new Map<string, number>();
  const kept: T[] = [];
  for (const row of rows) {
    const count = perFile.get(row.path) ?? 0;
    if (count >= MAX_CHUNKS_PER_FILE) continue;
    perFile.set(row.path, count + 1);
    kept.push(row);
    if (kept.length === k) break;
  }
  return kept;
}

function buildFilter(
  options: SearchOptions & { paths: readonly string[] },
): { where: string | undefined; postFilter: ((path: string) => boolean) | undefined } | "nothing" {
  const clauses: string[] = [];
  let postFilter: ((path: string) => boolean) | undefined;
  if (options.language) clauses.push(`language = ${sqlString(options.language.toLowerCase())}`);
  if (options.path) {
    const matches = picomatch(options.path, { dot: true });
    const paths = options.paths.filter((path) => matches(path));
    if (paths.length === 0) return "nothing";
    if (paths.length <= MAX_PATHS_IN_FILTER) clauses.push(pathInList(paths));
    else postFilter = matches;
  }
  return { where: clauses.length > 0 ? clauses.join(" AND ") : undefined, postFilter };
}

function toResult(row: ResultRow): SearchResult {
  const lines = row.content.split("\n");
  const snippet =
    lines.length > SNIPPET_LINES ? `${lines.slice(0, SNIPPET_LINES).join("\n")}\n…` : row.content;
  return {
    path: row.path,
    startLine: row.start_line,
    endLine: row.end_line,
    symbol: row.symbol ?? undefined,
    language: row.language,
    kind: row.kind,
    score: row._relevance_score ?? row._score ?? 0,
    snippet,
    content: row.content,
  };
}
