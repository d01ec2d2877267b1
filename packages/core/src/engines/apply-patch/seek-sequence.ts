/**
 * Finds `pattern` as consecutive lines of `lines`, at or after `start`. Tries an exact match first,
 * then ignoring trailing whitespace, then ignoring surrounding whitespace, then with typographic
 * punctuation (dashes, quotes, non-breaking spaces) folded to ASCII — models often emit those.
 * With `atEnd`, only the position that ends at the last line is tried first, then the usual scan.
 * Returns the index of the first matching line, or undefined.
 */
export function seekSequence(
  lines: string[],
  pattern: string[],
  start: number,
  atEnd: boolean,
): number | undefined {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const normalisers = [
    (text: string) => text,
    (text: string) => text.trimEnd(),
    (text: string) => text.trim(),
    (text: string) => foldPunctuation(text.trim()),
  ];
  const last = lines.length - pattern.length;
  for (const normalise of normalisers) {
    const wanted = pattern.map(normalise);
    const matchesAt = (index: number) =>
      wanted.every((line, offset) => normalise(lines[index + offset]!) === line);
    if (atEnd && last >= start && matchesAt(last)) return last;
    for (let index = start; index <= last; index += 1) {
      if (matchesAt(index)) return index;
    }
  }
  return undefined;
}

function foldPunctuation(text: string): string {
  return text
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}
