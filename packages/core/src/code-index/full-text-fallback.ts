import { readFile, stat } from "node:fs/promises";
import { compareText } from "@nyzhi/config";
import picomatch from "picomatch";
import { walkFiles } from "../engines/file-walk/walk-files.js";
import type { SearchHit } from "./format-search-hits.js";

/** Files larger than this (bytes) are not read by the fallback. */
const MAX_FILE_BYTES = 512 * 1024;
/** Files read at most, and ms spent at most, so an unindexed large project still answers quickly. */
const MAX_FILES = 5_000;
const MAX_MS = 2_000;
/** Lines per scored window. */
const WINDOW = 20;

/** The query's words, lowercased, compound identifiers split too (`parseConfig` → parse, config). */
export function queryWords(query: string): string[] {
  const words = new Set<string>();
  for (const token of query.match(/[A-Za-z0-9_]+/g) ?? []) {
    if (token.length >= 2) words.add(token.toLowerCase());
    for (const part of token.split(/_|(?<=[a-z0-9])(?=[A-Z])/))
      if (part.length >= 3) words.add(part.toLowerCase());
  }
  return [...words];
}

/**
 * What `semantic_search` answers when there is no index yet: windows of 20 lines scored by the
 * share of the query's words they contain (a whole identifier of the query counts double), at most
 * three per file, over the files the ignore rules keep and `canRead` allows (the deny rules).
 */
export async function fullTextFallback(
  root: string,
  query: string,
  options: { k: number; path?: string; canRead?: (absolutePath: string) => Promise<boolean> },
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const wholeTokens = new Set((query.match(/[A-Za-z0-9_]+/g) ?? []).map((token) => token.toLowerCase()));
  const matchesPath = options.path ? picomatch(options.path, { dot: true }) : () => true;
  const started = Date.now();
  const hits: SearchHit[] = [];
  let files = 0;
  for await (const file of walkFiles({ root, respectIgnoreFiles: true, ...(signal ? { signal } : {}) })) {
    if (files >= MAX_FILES || Date.now() - started > MAX_MS) break;
    if (!matchesPath(file.relative)) continue;
    if (options.canRead && !(await options.canRead(file.absolute))) continue;
    const info = await stat(file.absolute).catch(() => undefined);
    if (!info || info.size > MAX_FILE_BYTES) continue;
    const bytes = await readFile(file.absolute).catch(() => undefined);
    if (!bytes || bytes.subarray(0, 8192).includes(0)) continue;
    files++;
    hits.push(...scoreFile(file.relative, bytes.toString("utf8"), words, wholeTokens));
  }
  hits.sort((left, right) => right.score - left.score || compareText(left.path, right.path));
  const perFile = new Map<string, number>();
  return hits
    .filter((hit) => {
      const count = perFile.get(hit.path) ?? 0;
      perFile.set(hit.path, count + 1);
      return count < 3;
    })
    .slice(0, options.k);
}

function scoreFile(path: string, content: string, words: string[], wholeTokens: Set<string>): SearchHit[] {
  const lines = content.split("\n");
  const hits: SearchHit[] = [];
  for (let start = 0; start < lines.length; start += WINDOW) {
    const text = lines.slice(start, start + WINDOW).join("\n");
    const lower = text.toLowerCase();
    let score = 0;
    for (const word of words) if (lower.includes(word)) score += wholeTokens.has(word) ? 2 : 1;
    if (score === 0) continue;
    const first = lines.findIndex(
      (line, index) => index >= start && words.some((word) => line.toLowerCase().includes(word)),
    );
    const from = Math.max(start, first);
    hits.push({
      path,
      startLine: from + 1,
      endLine: Math.min(lines.length, start + WINDOW),
      symbol: undefined,
      score: score / (words.length + wholeTokens.size),
      snippet: lines.slice(from, start + WINDOW).join("\n"),
      source: "full-text",
    });
  }
  return hits;
}
