import picomatch from "picomatch";

const GLOB_OPTIONS = { dot: true } as const;

/**
 * Matches a relative POSIX path against `index.exclude` globs (picomatch syntax, dot files
 * included), the way `.gitignore` reads a pattern:
 *
 * - without a `/` it matches a file's or a directory's name at any depth (`*.snap`, `fixtures`);
 * - with a `/` at the start or in the middle it is matched against the whole path from the
 *   project root (`src/generated/**`, `docs/*.md`, `/build`); `**` spans directories, so
 *   `**\/fixtures/*.json` matches at any depth;
 * - a trailing `/` is dropped (`dist/` = `dist`).
 *
 * A directory that matches is left out whole, so `vendor/**` and `vendor` both skip the folder
 * without reading it. All patterns are compiled once into at most two regular expressions (one
 * for names, one for paths) plus a set of plain names: the walker tests every entry it sees.
 */
export function createExcludeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const names = new Set<string>();
  const nameGlobs: RegExp[] = [];
  const pathGlobs: RegExp[] = [];
  for (const raw of patterns) {
    const pattern = raw.trim().replace(/\/+$/, "");
    if (pattern === "") continue;
    if (pattern.includes("/")) {
      const anchored = pattern.replace(/^\.?\/+/, "");
      if (anchored !== "") pathGlobs.push(picomatch.makeRe(anchored, GLOB_OPTIONS));
    } else if (picomatch.scan(pattern).isGlob || pattern.includes("\\")) {
      nameGlobs.push(picomatch.makeRe(pattern, GLOB_OPTIONS));
    } else {
      names.add(pattern);
    }
  }
  const name = combine(nameGlobs);
  const path = combine(pathGlobs);
  if (names.size === 0 && !name && !path) return () => false;
  return (relativePath) => {
    const base = relativePath.slice(relativePath.lastIndexOf("/") + 1);
    return names.has(base) || name?.test(base) === true || path?.test(relativePath) === true;
  };
}

/** One expression that matches what any of `expressions` matches (each is anchored, `^…$`). */
function combine(expressions: readonly RegExp[]): RegExp | undefined {
  if (expressions.length === 0) return undefined;
  return new RegExp(expressions.map((expression) => `(?:${expression.source})`).join("|"));
}

/** Whether the path or one of the directories above it matches (directory verdicts cached). */
export function createAncestorExcludeMatcher(matches: (path: string) => boolean): (path: string) => boolean {
  const directoryVerdicts = new Map<string, boolean>();
  const directoryOut = (directory: string): boolean => {
    let verdict = directoryVerdicts.get(directory);
    if (verdict === undefined) {
      const slash = directory.lastIndexOf("/");
      verdict = (slash > 0 && directoryOut(directory.slice(0, slash))) || matches(directory);
      directoryVerdicts.set(directory, verdict);
    }
    return verdict;
  };
  return (path) => {
    const slash = path.lastIndexOf("/");
    return (slash > 0 && directoryOut(path.slice(0, slash))) || matches(path);
  };
}
