import { globToRegExp } from "../engines/glob/glob-to-regexp.js";

/** Compiled tool-name patterns (`bash`, `git_*`, `mcp__github__*`, `*`), matched case-insensitively. */
export interface ToolPatterns {
  readonly isEmpty: boolean;
  /** The first pattern matching `toolName`, if any. */
  match(toolName: string): string | undefined;
}

export function compileToolPatterns(patterns: readonly string[]): ToolPatterns {
  const compiled = patterns
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern !== "")
    .map((pattern) => ({ pattern, regexp: globToRegExp(pattern, { caseInsensitive: true }) }));
  return {
    isEmpty: compiled.length === 0,
    match: (toolName) => compiled.find(({ regexp }) => regexp.test(toolName))?.pattern,
  };
}
