import { createHash } from "node:crypto";
import type { CodeChunk } from "../types.js";
import { relatedWords } from "./code-thesaurus.js";
import { abbreviationWords, pathWords, splitIdentifier, splitIdentifiersIn } from "./split-identifiers.js";

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
  /**
   * What the full-text index reads: the content, then the words of its path, symbol and
   * identifiers, the abbreviations they use spelled out, and their thesaurus words.
   */
  text: string;
  /** The symbol's words (`SessionRedirectMixin.resolve_redirects` → `session redirect mixin resolve redirects`), weighted apart. */
  name_text: string;
  /** The path's words (`lib/helpers/buildURL.js` → `lib helpers build url js`), weighted apart. */
  path_text: string;
  /** The chunk's comments and docstrings, as words, weighted apart. */
  doc_text: string;
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
 * compound identifiers, so `parse config` and `config file` find `parseConfigFile`, the words of
 * the abbreviations they use (`cfg` → `config`), and their thesaurus words (`relatedText`).
 */
export function searchText(chunk: Pick<CodeChunk, "path" | "symbol" | "content">): string {
  const extra = [pathWords(chunk.path)];
  if (chunk.symbol) extra.push(symbolWords(chunk.symbol));
  const compounds = splitIdentifiersIn(chunk.content);
  extra.push(...compounds);
  const words = [...extra.join(" ").split(" "), ...(chunk.content.toLowerCase().match(/[a-z]+/g) ?? [])];
  extra.push(abbreviationWords(words));
  extra.push(relatedText(chunk));
  return `${chunk.content}\n${extra.join("\n")}`;
}

/** The words of a symbol path: its parts and each part's compound words. */
export function symbolWords(symbol: string): string {
  return symbol
    .split(/[^A-Za-z0-9_$]+/)
    .flatMap(splitIdentifier)
    .join(" ");
}

/**
 * The thesaurus words related to the words of a chunk's symbol and of the identifiers in its
 * code, each once: written into its full-text column, so a question in other words (`wipe`)
 * reaches code written in the API's (`clear`) with no more work at search time.
 */
export function relatedText(chunk: Pick<CodeChunk, "symbol" | "content">): string {
  const words = new Set<string>();
  if (chunk.symbol) for (const word of symbolWords(chunk.symbol).split(" ")) words.add(word);
  for (const match of chunk.content.matchAll(/[A-Za-z_$][\w$]*/g)) {
    for (const word of splitIdentifier(match[0])) words.add(word);
  }
  return relatedWords(words).join(" ");
}

/** Line comments (`//`, `#`, `--`), block comments and docstrings, joined by newlines. */
const COMMENT = /\/\*[\s\S]*?\*\/|(?:^|\s)(?:\/\/|#)[^\n]*|"""[\s\S]*?"""|'''[\s\S]*?'''/g;

/** The natural-language part of a chunk: its comments and docstrings, without their markers. */
export function commentText(content: string): string {
  const parts: string[] = [];
  for (const match of content.matchAll(COMMENT)) {
    const text = match[0]
      .replace(/^\s*(?:\/\/|#|\/\*+|"""|''')|(?:\*\/|"""|''')$/g, "")
      .replace(/^\s*\*/gm, "");
    if (/[A-Za-z]{2}/.test(text)) parts.push(text.trim());
  }
  return parts.join("\n");
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
    name_text: chunk.symbol ? symbolWords(chunk.symbol) : "",
    path_text: pathWords(chunk.path),
    doc_text: commentText(chunk.content),
    content_hash: hashText(chunk.content),
    embedder_id: options.embedderId,
  };
  // A plain array: LanceDB's row conversion walks a typed array's indices as fields of an object.
  if (options.vector) row.vector = Array.from(options.vector);
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
