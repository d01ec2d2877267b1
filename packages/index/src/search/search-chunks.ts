import type { FullTextQuery } from "@lancedb/lancedb";
import picomatch from "picomatch";
import { pathInList, RESULT_COLUMNS, sqlString } from "../store/chunk-rows.js";
import { type ChunkTable, FULL_TEXT_COLUMNS } from "../store/chunk-table.js";
import { loadLanceDb } from "../store/load-lancedb.js";
import { FIELD_BOOSTS, fullTextQuery, fuseRanks, rerank } from "./rank-chunks.js";

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
   * full-text one (halved for prose). Comparable only within one search.
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
  content_hash?: string;
  _score?: number | null;
  /** The ranking score: BM25, or the fused score of a hybrid search. */
  score: number;
}

/**
 * Searches one table: full-text (BM25) over the chunk's body, symbol name, path and comments,
 * each weighted apart (FIELD_BOOSTS; a table of an older row format has the body only), fused by
 * reciprocal rank with a vector search when `queryVector` is given, then re-ranked (`rerank`).
 * At most MAX_CHUNKS_PER_FILE chunks per file; `paths` (the index's files) resolves a path glob
 * into an exact filter.
 */
export async function searchChunks(
  table: ChunkTable,
  query: string,
  options: SearchOptions & { queryVector?: Float32Array | number[] | undefined; paths: readonly string[] },
): Promise<SearchResult[]> {
  const k = Math.min(Math.max(1, Math.floor(options.k ?? DEFAULT_RESULTS)), MAX_RESULTS);
  const text = fullTextQuery(query);
  const vector = table.dimensions !== undefined ? options.queryVector : undefined;
  if (text === "" && !vector) return [];
  const filter = buildFilter(options);
  if (filter === "nothing") return [];
  const { lancedb } = await loadLanceDb();
  const fetch = Math.max(k * 2 * MAX_CHUNKS_PER_FILE, CANDIDATES) * (filter.postFilter ? 4 : 1);
  const lists: ResultRow[][] = [];
  if (text !== "") {
    const rows =
      table.weightedFields && filter.where
        ? await filteredMultiColumnSearch(table, text, filter.where, fetch)
        : await fullTextRows(
            table,
            table.weightedFields
              ? new lancedb.MultiMatchQuery(text, [...FULL_TEXT_COLUMNS], { boosts: [...FIELD_BOOSTS] })
              : new lancedb.MatchQuery(text, "text"),
            filter.where,
            fetch,
          );
    lists.push(rows);
  }
  if (vector) {
    let builder = table.table.query().nearestTo(vector);
    if (filter.where) builder = builder.where(filter.where);
    const rows = (await builder.limit(fetch).select(selected(table)).toArray()) as ResultRow[];
    lists.push(rows.map((row) => ({ ...row, score: 0 })));
  }
  options.signal?.throwIfAborted();
  const ranked =
    lists.length === 1
      ? (lists[0] ?? [])
      : fuseRanks(lists, (row) => `${row.path}:${row.start_line}:${row.end_line}`);
  const kept = filter.postFilter ? ranked.filter((row) => filter.postFilter?.(row.path)) : ranked;
  return capPerFile(rerank(kept, query), k).map(toResult);
}

async function fullTextRows(
  table: ChunkTable,
  match: FullTextQuery,
  where: string | undefined,
  fetch: number,
): Promise<ResultRow[]> {
  let builder = table.table.query().fullTextSearch(match);
  if (where) builder = builder.where(where);
  const rows = (await builder
    .limit(fetch)
    .select([...selected(table), "_score"])
    .toArray()) as ResultRow[];
  return rows.map((row) => ({ ...row, score: row._score ?? 0 }));
}

/**
 * A weighted multi-column full-text search under a filter, as one single-column query per column
 * whose boosted scores are summed per chunk: what `MultiMatchQuery` computes, but LanceDB 0.22
 * answers a `MultiMatchQuery` with a `where` nondeterministically (about half the time it drops
 * rows the filter keeps), while single-column queries under the same filter are exact.
 */
async function filteredMultiColumnSearch(
  table: ChunkTable,
  text: string,
  where: string,
  fetch: number,
): Promise<ResultRow[]> {
  const { lancedb } = await loadLanceDb();
  const perColumn = await Promise.all(
    FULL_TEXT_COLUMNS.map((column) =>
      fullTextRows(table, new lancedb.MatchQuery(text, column), where, fetch),
    ),
  );
  const summed = new Map<string, ResultRow>();
  perColumn.forEach((rows, column) => {
    const boost = FIELD_BOOSTS[column] ?? 1;
    for (const row of rows) {
      const key = `${row.path}:${row.start_line}:${row.end_line}`;
      const seen = summed.get(key);
      if (seen) seen.score += row.score * boost;
      else summed.set(key, { ...row, score: row.score * boost });
    }
  });
  return [...summed.values()].sort((left, right) => right.score - left.score).slice(0, fetch);
}

/** Candidates read from each side before re-ranking. */
const CANDIDATES = 60;

function selected(table: ChunkTable): string[] {
  return table.weightedFields ? [...RESULT_COLUMNS, "content_hash"] : [...RESULT_COLUMNS];
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
    score: row.score,
    snippet,
    content: row.content,
  };
}
