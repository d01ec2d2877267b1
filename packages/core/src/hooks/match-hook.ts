import { basename, isAbsolute, relative } from "node:path";
import { globToRegExp } from "../engines/glob/glob-to-regexp.js";

/** What a hook's filters are checked against. */
export interface HookMatchSubject {
  /** Tool name of the event, when it has one. */
  toolName?: string;
  /** Files the event concerns (absolute or relative to `cwd`). */
  files: readonly string[];
  cwd: string;
}

/**
 * Whether a hook's `pattern` and `tool_name` filters both pass. An empty or missing filter passes;
 * a filter set on an event without that subject (a `pattern` on an event without files, a
 * `tool_name` on an event without a tool) does not, so a `*.ts` hook never fires for `bash`.
 */
export function hookFiltersPass(
  filters: { pattern?: string | undefined; tool_name?: string | undefined },
  subject: HookMatchSubject,
): boolean {
  const patterns = splitList(filters.pattern);
  if (patterns.length > 0 && !subject.files.some((file) => matchesFilePattern(patterns, file, subject.cwd))) {
    return false;
  }
  const names = splitList(filters.tool_name);
  if (names.length > 0) {
    if (subject.toolName === undefined || !matchesToolName(names, subject.toolName)) return false;
  }
  return true;
}

/**
 * `pattern` entries: a glob with `/` is matched against the path relative to `cwd` (or the
 * absolute path outside it); a glob without `/` (`*.ts`) against the file name; an entry without
 * glob characters is a substring of the path (`src/`).
 */
export function matchesFilePattern(patterns: readonly string[], file: string, cwd: string): boolean {
  const fromRoot = isAbsolute(file) ? relative(cwd, file) : file;
  const inside = fromRoot !== "" && !fromRoot.startsWith("..") && !isAbsolute(fromRoot);
  const path = inside ? fromRoot : file;
  return patterns.some((pattern) => {
    if (!hasGlob(pattern)) return path.includes(pattern) || file.includes(pattern);
    const regex = globToRegExp(pattern);
    return pattern.includes("/") ? regex.test(path) || regex.test(file) : regex.test(basename(file));
  });
}

/** `tool_name` entries: case-insensitive names, `*` and `?` globs allowed (`mcp__*`). */
export function matchesToolName(names: readonly string[], toolName: string): boolean {
  const wanted = toolName.toLowerCase();
  return names.some((name) => {
    const lower = name.toLowerCase();
    return hasGlob(lower) ? globToRegExp(lower).test(wanted) : lower === wanted;
  });
}

/** Splits a comma list, trimming and dropping empty entries. */
export function splitList(list: string | undefined): string[] {
  if (!list) return [];
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

function hasGlob(text: string): boolean {
  return /[*?[]/.test(text);
}
