const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/** Word boundaries inside an identifier: `aB`, the `P` of `HTTPParser`, `_`, `$`. */
const BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[_$]+/;

/**
 * The words of one identifier, lower-cased: `parseConfigFile` → `parse config file`,
 * `MAX_FILE_BYTES` → `max file bytes`, `HTTPServer` → `http server`. Digits stay with their
 * letters (`utf8Decode` → `utf8 decode`). One word (or none) when it does not split.
 */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .split(BOUNDARY)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * The words of every compound identifier in `text`, each compound once, in order of first
 * appearance: what the full-text index gets beside the code so that `parse config` finds
 * `parseConfigFile` (the tokenizer alone keeps it as the single token `parseconfigfile`).
 */
export function splitIdentifiersIn(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    const identifier = match[0];
    if (seen.has(identifier)) continue;
    seen.add(identifier);
    const parts = splitIdentifier(identifier);
    if (parts.length > 1) words.push(parts.join(" "));
  }
  return words;
}

/** Words of a path: `src/walker/walk-project.ts` → `src walker walk project ts`. */
export function pathWords(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => splitIdentifier(part))
    .join(" ");
}
