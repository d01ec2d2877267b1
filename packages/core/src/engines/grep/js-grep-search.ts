import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { NyzhiError } from "@nyzhi/config";
import { walkFiles } from "../file-walk/walk-files.js";
import { globToRegExp } from "../glob/glob-to-regexp.js";
import {
  GREP_MAX_FILE_BYTES,
  type GrepMatch,
  type GrepSearchOptions,
  type GrepSearchResult,
} from "./grep-search-types.js";
import { rustRegexToJs } from "./rust-regex.js";

/**
 * The pure-JavaScript grep, used when ripgrep is not installed. It walks files in the same order
 * with the same ignore rules and skips the same files (hidden, node_modules, ignored, binary,
 * larger than 10 MiB), so its output is identical to the ripgrep back end's.
 */
export async function searchWithJs(options: GrepSearchOptions): Promise<GrepSearchResult> {
  const regex = compileRegex(options.pattern, options.caseInsensitive === true);
  const include =
    options.include && !options.targetIsFile ? globToRegExp(options.include, { anyDepth: true }) : undefined;
  const matches: GrepMatch[] = [];
  const files = options.targetIsFile
    ? singleFile(options.target)
    : walkFiles({ root: options.target, ...(options.signal ? { signal: options.signal } : {}) });
  for await (const file of files) {
    if (include && !include.test(file.relative)) continue;
    const found = await searchFile(file.absolute, regex, options.maxMatches + 1 - matches.length);
    for (const match of found) {
      matches.push(match);
      if (matches.length > options.maxMatches)
        return { matches: matches.slice(0, options.maxMatches), truncated: true };
    }
  }
  return { matches, truncated: false };
}

async function* singleFile(path: string) {
  yield { absolute: path, relative: basename(path) };
}

/** The file's first `limit` matching lines; the lines after them are not looked at. */
async function searchFile(path: string, regex: RegExp, limit: number): Promise<GrepMatch[]> {
  try {
    if ((await stat(path)).size > GREP_MAX_FILE_BYTES) return [];
    const bytes = await readFile(path);
    if (bytes.includes(0)) return [];
    const text = bytes.toString("utf8");
    const matches: GrepMatch[] = [];
    // Line by line without splitting the whole text: a file of millions of short lines stays one string.
    for (let start = 0, number = 1; start < text.length && matches.length < limit; number++) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const line = text.slice(start, end);
      if (regex.test(line))
        matches.push({ path, line: number, text: line.endsWith("\r") ? line.slice(0, -1) : line });
      start = end + 1;
    }
    return matches;
  } catch {
    return [];
  }
}

function compileRegex(pattern: string, caseInsensitive: boolean): RegExp {
  // Rust's meaning where it can be reproduced exactly; else JavaScript's reading of the pattern.
  const translated = rustRegexToJs(pattern, caseInsensitive);
  if (translated) return translated;
  const flags = caseInsensitive ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      throw new NyzhiError("tool_failed", `Invalid regular expression: ${(error as Error).message}`);
    }
  }
}
