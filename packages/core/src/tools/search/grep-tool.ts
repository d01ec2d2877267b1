import { type Stats, statSync } from "node:fs";
import { z } from "zod";
import type { GrepSearchOptions, GrepSearchResult } from "../../engines/grep/grep-search-types.js";
import { searchInProcess } from "../../engines/grep/in-process-grep.js";
import { searchWithJs } from "../../engines/grep/js-grep-search.js";
import {
  RipgrepMissingError,
  RipgrepUnusableError,
  ripgrepKnownMissing,
  searchWithRipgrep,
} from "../../engines/grep/ripgrep-search.js";
import { displayPath, isNotFound } from "../files/file-system.js";
import { defineShippedTool, type Tool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { truncateEnd } from "../seam/truncate-text.js";

/** Most matches shown. */
export const MAX_GREP_MATCHES = 500;
/** Matching lines longer than this (code points) are cut. */
export const MAX_GREP_LINE_CHARS = 500;

/** Which search back end grep uses: ripgrep when installed (`auto`), or one forced. */
export type GrepBackend = "auto" | "ripgrep" | "js";

export interface CreateGrepToolOptions {
  /** Default: `NYZHI_GREP_BACKEND` from the environment, else `auto`. */
  backend?: GrepBackend;
}

const inputSchema = z.lazy(() =>
  z.object({
    pattern: z.string().min(1).describe("Regular expression to search for."),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("File or directory to search. Default: the working directory."),
    include: z
      .string()
      .min(1)
      .optional()
      .describe("Only search files matching this glob, e.g. '*.ts' or 'src/**/*.{ts,tsx}'."),
    case_insensitive: z.boolean().optional().describe("Ignore case. Default false."),
  }),
);

type GrepInput = z.infer<typeof inputSchema>;

/**
 * Runs the search with the chosen back end and formats `path:line:text` lines sorted by path then
 * line. Exported so tests can compare the back ends on one fixture.
 */
export async function runGrep(input: GrepInput, context: ToolContext, backend: GrepBackend): Promise<string> {
  const target = await context.paths.resolve(input.path ?? ".", "read");
  // Synchronous: one stat costs less than the round trip through the thread pool.
  let stats: Stats;
  try {
    stats = statSync(target);
  } catch (error) {
    if (isNotFound(error)) throw new ToolError(`Path not found: ${displayPath(context, target)}`);
    throw error;
  }
  const options: GrepSearchOptions = {
    pattern: input.pattern,
    target,
    targetIsFile: !stats.isDirectory(),
    include: input.include,
    caseInsensitive: input.case_insensitive,
    maxMatches: MAX_GREP_MATCHES,
    signal: context.signal,
  };
  const result = await search(options, backend);
  if (result.matches.length === 0) return "No matches found";
  // Matches come grouped by file: each file's display path is computed once.
  let lastPath = "";
  let lastShown = "";
  const lines = result.matches.map((match) => {
    if (match.path !== lastPath) {
      lastPath = match.path;
      lastShown = displayPath(context, match.path);
    }
    return `${lastShown}:${match.line}:${truncateEnd(match.text, MAX_GREP_LINE_CHARS)}`;
  });
  if (result.truncated) {
    lines.push(
      `(showing the first ${MAX_GREP_MATCHES} matches; more exist — narrow the pattern, path or include)`,
    );
  }
  return lines.join("\n");
}

async function search(options: GrepSearchOptions, backend: GrepBackend): Promise<GrepSearchResult> {
  if (backend === "js") return searchWithJs(options);
  // A small folder or file with a pattern whose meaning JavaScript can reproduce: searched here,
  // with ripgrep's exact results, for less than it costs to start ripgrep.
  if (backend === "auto") {
    const small = searchInProcess(options);
    if (small) return small;
  }
  // No separate `rg --version` probe (a process spawn per run): the first search finds out.
  if (backend === "auto" && ripgrepKnownMissing()) return searchWithJs(options);
  try {
    return await searchWithRipgrep(options);
  } catch (error) {
    if (error instanceof RipgrepMissingError && backend === "ripgrep") {
      throw new ToolError("ripgrep is not installed (install ripgrep, or set NYZHI_GREP_BACKEND=js)");
    }
    // Patterns only JavaScript understands (lookaround, backreferences) get a second chance.
    if (backend === "auto" && error instanceof RipgrepUnusableError) return searchWithJs(options);
    if (error instanceof RipgrepUnusableError) throw new ToolError(`ripgrep failed: ${error.message}`);
    throw error;
  }
}

export function createGrepTool(options: CreateGrepToolOptions = {}): Tool {
  return defineShippedTool({
    name: "grep",
    description:
      "Search file contents with a regular expression. Returns `path:line:text`, sorted by path. Skips hidden, ignored (.gitignore), node_modules and binary files.",
    inputSchema,
    kind: "read",
    mutates: false,
    paths: (input) => [{ path: input.path ?? ".", access: "read" }],
    execute: (input, context) => runGrep(input, context, options.backend ?? backendFromEnvironment()),
  });
}

function backendFromEnvironment(): GrepBackend {
  const value = process.env.NYZHI_GREP_BACKEND;
  return value === "js" || value === "ripgrep" ? value : "auto";
}

export const grepTool = createGrepTool();
