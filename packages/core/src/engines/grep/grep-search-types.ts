/** One matching line. */
export interface GrepMatch {
  /** Absolute path of the file. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line without its line ending (not yet cut for display). */
  text: string;
}

export interface GrepSearchOptions {
  /** Regular expression (ripgrep / JavaScript syntax; the common subset behaves the same). */
  pattern: string;
  /** Absolute path of a directory or a single file. */
  target: string;
  targetIsFile: boolean;
  /** Glob that files must match (e.g. `*.ts`, `src/**\/*.{ts,tsx}`); ignored for a single file. */
  include?: string | undefined;
  caseInsensitive?: boolean | undefined;
  /** Stop after this many matches. */
  maxMatches: number;
  signal?: AbortSignal | undefined;
}

export interface GrepSearchResult {
  /** At most `maxMatches`, sorted by path (segment by segment) then line. */
  matches: GrepMatch[];
  /** True when more matches exist than were returned. */
  truncated: boolean;
}

/** Files larger than this (bytes) are skipped by both back ends. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
