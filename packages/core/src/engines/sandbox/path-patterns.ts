import { homedir } from "node:os";
import { isAbsolute, relative, sep } from "node:path";
import { globToRegExp } from "../glob/glob-to-regexp.js";
import { isWithin } from "./resolve-real-path.js";

/**
 * A compiled list of path patterns (`deny_paths`, `allow_paths`). Three shapes:
 * - a bare name without `/` (`.env`, `*.pem`, `secrets`) matches a path component at any depth;
 * - a relative pattern with `/` (`src/**`, `config/prod.toml`) is anchored at a workspace root;
 * - an absolute pattern (`/etc/**`, `~/.ssh`) is matched against the absolute path.
 * A pattern that matches a directory matches everything inside it, so `secrets` and `secrets/`
 * protect `secrets/key.txt` too.
 */
export interface PathPatterns {
  readonly patterns: readonly string[];
  /** The first pattern matching `absolutePath` (or one of its ancestors), if any. */
  match(absolutePath: string): string | undefined;
}

interface CompiledPattern {
  source: string;
  kind: "name" | "relative" | "absolute";
  regexp: RegExp;
}

export function compilePathPatterns(patterns: readonly string[], roots: readonly string[]): PathPatterns {
  const compiled = patterns.map(compilePattern).filter((pattern) => pattern !== undefined);
  return {
    patterns,
    match(absolutePath) {
      const root = roots.find((candidate) => isWithin(absolutePath, candidate));
      const relativePath = root === undefined ? undefined : toSlashes(relative(root, absolutePath));
      const absoluteSlashes = toSlashes(absolutePath);
      for (const pattern of compiled) {
        if (matchesPattern(pattern, absoluteSlashes, relativePath)) return pattern.source;
      }
      return undefined;
    },
  };
}

/** A pattern with `~` expanded, slashes normalised and its shape decided. */
export interface NormalizedPathPattern {
  kind: "name" | "relative" | "absolute";
  /** `~/.ssh` → `/home/me/.ssh`; `./config/` → `config`. */
  pattern: string;
}

/** Expands `~` (the home directory), normalises slashes and says which of the three shapes it is. */
export function normalizePathPattern(source: string): NormalizedPathPattern | undefined {
  let pattern = source.trim();
  if (pattern === "") return undefined;
  if (pattern === "~" || pattern.startsWith("~/")) pattern = toSlashes(homedir()) + pattern.slice(1);
  pattern = pattern.replace(/\\/g, "/");
  while (pattern.length > 1 && pattern.endsWith("/")) pattern = pattern.slice(0, -1);
  if (pattern.startsWith("./")) pattern = pattern.slice(2);
  const kind =
    isAbsolute(pattern) || pattern.startsWith("/") ? "absolute" : pattern.includes("/") ? "relative" : "name";
  return { kind, pattern };
}

function compilePattern(source: string): CompiledPattern | undefined {
  const normalized = normalizePathPattern(source);
  if (normalized === undefined) return undefined;
  return { source, kind: normalized.kind, regexp: globToRegExp(normalized.pattern) };
}

function matchesPattern(
  pattern: CompiledPattern,
  absolutePath: string,
  relativePath: string | undefined,
): boolean {
  if (pattern.kind === "absolute")
    return prefixes(absolutePath).some((prefix) => pattern.regexp.test(prefix));
  if (pattern.kind === "relative") {
    return relativePath !== undefined && prefixes(relativePath).some((prefix) => pattern.regexp.test(prefix));
  }
  const components = (relativePath ?? absolutePath).split("/").filter((component) => component !== "");
  return components.some((component) => pattern.regexp.test(component));
}

/** `a/b/c` → `a`, `a/b`, `a/b/c`; `/a/b` → `/`, `/a`, `/a/b`. */
function prefixes(path: string): string[] {
  const result: string[] = [];
  const absolute = path.startsWith("/");
  if (absolute) result.push("/");
  let current = absolute ? "" : undefined;
  for (const component of path.split("/")) {
    if (component === "") continue;
    current = current === undefined ? component : `${current}/${component}`;
    result.push(current);
  }
  return result;
}

function toSlashes(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
