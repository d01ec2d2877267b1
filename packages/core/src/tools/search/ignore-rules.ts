import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { compileGlob, type GlobMatcher } from "./glob-pattern.js";

/**
 * Ignore files read while walking, in ripgrep's order of precedence (lowest first): a match in a
 * higher-precedence kind decides; within a kind, deeper files and later lines win.
 */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".rgignore"] as const;

interface IgnoreRule {
  base: string;
  negated: boolean;
  matcher: GlobMatcher;
}

/** The ignore rules in force in one directory (its own files plus its ancestors'). */
export class IgnoreRules {
  /** One rule list per ignore-file kind, outermost directory first. */
  readonly #rules: IgnoreRule[][];

  private constructor(rules: IgnoreRule[][]) {
    this.#rules = rules;
  }

  static empty(): IgnoreRules {
    return new IgnoreRules(IGNORE_FILE_NAMES.map(() => []));
  }

  /** Rules from the ignore files of every ancestor of `directory` (not `directory` itself). */
  static async forAncestorsOf(directory: string): Promise<IgnoreRules> {
    let rules = IgnoreRules.empty();
    for (const ancestor of ancestorsOf(directory)) rules = await rules.withDirectory(ancestor);
    return rules;
  }

  /** {@link forAncestorsOf}, reading synchronously (for small, bounded walks). */
  static forAncestorsOfSync(directory: string): IgnoreRules {
    let rules = IgnoreRules.empty();
    for (const ancestor of ancestorsOf(directory)) rules = rules.withDirectorySync(ancestor);
    return rules;
  }

  /** These rules plus the ignore files found in `directory`. */
  async withDirectory(directory: string): Promise<IgnoreRules> {
    const texts = await Promise.all(
      IGNORE_FILE_NAMES.map((name) => readFile(join(directory, name), "utf8").catch(() => undefined)),
    );
    return this.#extend(directory, texts);
  }

  /** {@link withDirectory}, reading synchronously. */
  withDirectorySync(directory: string): IgnoreRules {
    return this.#extend(
      directory,
      IGNORE_FILE_NAMES.map((name) => {
        try {
          return readFileSync(join(directory, name), "utf8");
        } catch {
          return undefined;
        }
      }),
    );
  }

  /** These rules plus `directory`'s ignore files' texts (one per kind, undefined when absent). */
  #extend(directory: string, texts: (string | undefined)[]): IgnoreRules {
    let changed = false;
    const next = texts.map((text, kind) => {
      const parsed = text === undefined ? [] : parseIgnoreFile(text, directory);
      if (parsed.length === 0) return this.#rules[kind]!;
      changed = true;
      return [...this.#rules[kind]!, ...parsed];
    });
    return changed ? new IgnoreRules(next) : this;
  }

  /** True when `path` (absolute) is ignored. */
  ignores(path: string, isDirectory: boolean): boolean {
    for (let kind = this.#rules.length - 1; kind >= 0; kind -= 1) {
      const verdict = decide(this.#rules[kind]!, path, isDirectory);
      if (verdict !== undefined) return verdict;
    }
    return false;
  }
}

/** `directory`'s ancestors, outermost first. */
function ancestorsOf(directory: string): string[] {
  const ancestors: string[] = [];
  let current = dirname(directory);
  for (;;) {
    ancestors.unshift(current);
    const parent = dirname(current);
    if (parent === current) return ancestors;
    current = parent;
  }
}

function decide(rules: IgnoreRule[], path: string, isDirectory: boolean): boolean | undefined {
  for (let index = rules.length - 1; index >= 0; index -= 1) {
    const rule = rules[index]!;
    if (rule.matcher.directoryOnly && !isDirectory) continue;
    const fromBase = relative(rule.base, path);
    if (fromBase === "" || fromBase.startsWith("..")) continue;
    if (rule.matcher.matches(fromBase.split(sep).join("/"))) return !rule.negated;
  }
  return undefined;
}

function parseIgnoreFile(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negated = false;
    if (line.startsWith("!")) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    if (line === "" || line === "/") continue;
    rules.push({ base, negated, matcher: compileGlob(line) });
  }
  return rules;
}
