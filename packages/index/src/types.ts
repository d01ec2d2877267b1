/** A file the walker kept. */
export interface WalkedFile {
  /** Relative to the project root, POSIX separators. */
  path: string;
  absolutePath: string;
  size: number;
  mtimeMs: number;
}
export interface WalkResult {
  files: WalkedFile[];
  /** Counts of what was left out, by reason. */
  skipped: { ignored: number; tooLarge: number; binary: number; outsideRoot: number };
  /** Where the file list came from: `git ls-files` (inside a work tree) or a walk of the file system. */
  source?: "git" | "filesystem";
}
/** One searchable unit of a file. */
export interface CodeChunk {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** `Class.method`, `function`, … ; undefined for a preamble or a text window. */
  symbol: string | undefined;
  kind: "function" | "method" | "class" | "interface" | "type" | "module" | "preamble" | "window";
  /** `typescript`, `tsx`, `javascript`, `python`, `go`, `rust`, `java`, `c`, `cpp`, `csharp`, `ruby`, … or `text`. */
  language: string;
  content: string;
}
