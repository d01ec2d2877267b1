import picomatch from "picomatch";

/**
 * Matches a relative POSIX path against `index.exclude` globs (picomatch syntax, dot files
 * included). A pattern without a `/` matches a file's or a directory's name at any depth
 * (`*.snap`, `fixtures`); a trailing `/` is dropped (`dist/` = `dist`). A directory that matches
 * is left out whole, so `vendor/**` and `vendor` both skip the folder without reading it.
 */
export function createExcludeMatcher(patterns: readonly string[]): (path: string) => boolean {
  const cleaned = patterns.map((pattern) => pattern.trim().replace(/\/+$/, "")).filter(Boolean);
  if (cleaned.length === 0) return () => false;
  return picomatch(cleaned, { dot: true, basename: true });
}

/** Whether the path or one of the directories above it matches (directory verdicts cached). */
export function createAncestorExcludeMatcher(matches: (path: string) => boolean): (path: string) => boolean {
  const directoryVerdicts = new Map<string, boolean>();
  return (path) => {
    for (let slash = path.indexOf("/"); slash >= 0; slash = path.indexOf("/", slash + 1)) {
      const directory = path.slice(0, slash);
      let verdict = directoryVerdicts.get(directory);
      if (verdict === undefined) {
        verdict = matches(directory);
        directoryVerdicts.set(directory, verdict);
      }
      if (verdict) return true;
    }
    return matches(path);
  };
}
