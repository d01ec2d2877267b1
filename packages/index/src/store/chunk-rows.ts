import { createHash } from "node:crypto";
import type { CodeChunk } from "../types.js";
import { pathWords, splitIdentifier, splitIdentifiersIn } from "./split-identifiers.js";

/** One row of a project's chunk table. Column names are snake_case, as stored. */
export interface ChunkRow {
  path: string;
  /** 1-based, inclusive. */
  start_line: number;
  end_line: number;
  symbol: string | null;
  kind: string;
  language: string;
  content: string;
  /** What the full-text index reads: the content, then the words of its path, symbol and identifiers. */
  text: string;
  /** sha256 hex of `content`: a chunk whose hash is unchanged keeps its vector. */
  content_hash: string;
  /** The embedder that made `vector`; empty without one. */
  embedder_id: string;
  vector?: Float32Array | number[];
}

/** The columns searches read back (everything but the full-text column and the vector). */
export const RESULT_COLUMNS = [
  "path",
  "start_line",
  "end_line",
  "symbol",
  "kind",
  "language",
  "content",
] as const;

export function hashText(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The full-text column of a chunk: its content followed by the words of its path, symbol and
 * compound identifiers, so `parse config` and `config file` find `parseConfigFile`.
 */
export function searchText(chunk: Pick<CodeChunk, "path" | "symbol" | "content">): string {
  const extra = [pathWords(chunk.path)];
  if (chunk.symbol)
    extra.push(
      chunk.symbol
        .split(/[^A-Za-z0-9_$]+/)
        .flatMap(splitIdentifier)
        .join(" "),
    );
  extra.push(...splitIdentifiersIn(chunk.content));
  return `${chunk.content}\n${extra.join("\n")}`;
}

/**
 * What an embedder reads for a chunk: where it is and what it is called, then the code, cut at
 * `maxCharacters` (API models refuse inputs over their token limit; 6,000 characters stays well
 * under 8,000 tokens of code).
 */
export function embeddingText(chunk: CodeChunk, maxCharacters = 6000): string {
  const header = chunk.symbol ? `${chunk.path} ${chunk.symbol}` : chunk.path;
  const text = `${header}\n${chunk.content}`;
  return text.length > maxCharacters ? text.slice(0, maxCharacters) : text;
}

export function toChunkRow(
  chunk: CodeChunk,
  options: { embedderId: string; vector: Float32Array | number[] | undefined },
): ChunkRow {
  const row: ChunkRow = {
    path: chunk.path,
    start_line: chunk.startLine,
    end_line: chunk.endLine,
    symbol: chunk.symbol ?? null,
    kind: chunk.kind,
    language: chunk.language,
    content: chunk.content,
    text: searchText(chunk),
    content_hash: hashText(chunk.content),
    embedder_id: options.embedderId,
  };
  if (options.vector) row.vector = options.vector;
  return row;
}

/** A SQL string literal for LanceDB filters (single quotes doubled). */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `path IN ('a', 'b')`. */
export function pathInList(paths: readonly string[]): string {
  return `path IN (${paths.map(sqlString).join(", ")})`;
}
