import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * Ignore files read while walking, in ripgrep's order of precedence (lowest first): a match in a
 * higher-precedence kind decides; within a kind, deeper files and later lines win. Each file is
 * read by the `ignore` package, git's rules; ripgrep reads them alike but for one extension: it
 * expands `{a,b}` alternatives, which git takes literally (see {@link IgnoreRules.ripgrepReadsAlike}).
 */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".rgignore"] as const;

/** One ignore file: its directory and its rules (the `ignore` package, git's reading of them). */
interface IgnoreFile {
  base: string;
  rules: Ignore;
}

/** The ignore rules in force in one directory (its own files plus its ancestors'). */
export class IgnoreRules {
  /** One list of files per ignore-file kind, outermost directory first. */
  readonly #rules: IgnoreFile[][];
  /**
   * False when a rule holds a `{`: ripgrep expands `{a,b}` there, git and this do not, so a
   * search that must give exactly ripgrep's results hands such a tree to ripgrep.
   */
  readonly ripgrepReadsAlike: boolean;

  private constructor(rules: IgnoreFile[][], ripgrepReadsAlike: boolean) {
    this.#rules = rules;
    this.ripgrepReadsAlike = ripgrepReadsAlike;
  }

  static empty(): IgnoreRules {
    return new IgnoreRules(
      IGNORE_FILE_NAMES.map(() => []),
      true,
    );
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
    let ripgrepReadsAlike = this.ripgrepReadsAlike;
    const next = texts.map((text, kind) => {
      if (text === undefined || text.trim() === "") return this.#rules[kind]!;
      changed = true;
      if (/^(?!#)[^\r\n]*\{/m.test(text)) ripgrepReadsAlike = false;
      // Case-sensitive, as git on Linux and ripgrep are (the package folds case by default).
      return [...this.#rules[kind]!, { base: directory, rules: ignore({ ignorecase: false }).add(text) }];
    });
    return changed ? new IgnoreRules(next, ripgrepReadsAlike) : this;
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

/**
 * The verdict of the deepest file with a rule matching `path`: true (ignored), false (re-included
 * by a `!` rule) or undefined (no rule matches).
 */
function decide(files: IgnoreFile[], path: string, isDirectory: boolean): boolean | undefined {
  for (let index = files.length - 1; index >= 0; index -= 1) {
    const file = files[index]!;
    const fromBase = relative(file.base, path);
    if (fromBase === "" || fromBase.startsWith("..")) continue;
    const slashed = sep === "/" ? fromBase : fromBase.split(sep).join("/");
    // A trailing `/` tells the package the path is a directory (for `build/`-style rules).
    const verdict = file.rules.test(isDirectory ? `${slashed}/` : slashed);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return undefined;
}
