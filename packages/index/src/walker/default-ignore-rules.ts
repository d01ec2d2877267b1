/**
 * Rules every walk starts with, in `.gitignore` syntax, as if they were the first lines of a
 * `.gitignore` at the project root: a project's own `.gitignore` or `.nyzhiignore` can re-include
 * one with `!` (for example `!node_modules/` to index dependencies). They keep out what is never
 * worth searching even in a project without a `.gitignore`: dependency folders, other version
 * control systems' folders, generated lockfiles, minified bundles and source maps.
 *
 * `.git` itself is not in this list: it is always skipped and cannot be re-included.
 */
export const DEFAULT_IGNORE_RULES: readonly string[] = [
  "node_modules/",
  "bower_components/",
  ".hg/",
  ".svn/",
  ".jj/",
  "*.min.js",
  "*.min.css",
  "*.map",
  "*.lock",
  "package-lock.json",
  "pnpm-lock.yaml",
  "go.sum",
];

/** The per-directory ignore files the walker reads, in the order their rules apply. */
export const IGNORE_FILE_NAMES = [".gitignore", ".nyzhiignore"] as const;
