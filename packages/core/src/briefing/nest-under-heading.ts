/**
 * Fits a Markdown document (the project memory index) into a section of another: drops the
 * document's own title (a level-1 heading as its first non-blank line, which the section's
 * heading replaces) and shifts its remaining headings so the highest sits one level below the
 * section's (`parentLevel` 2: `## Topics` becomes `### Topics`; never deeper than `######`).
 * Lines inside fenced code blocks are left alone. Leading blank lines are dropped.
 */
export function nestUnderHeading(markdown: string, parentLevel: number): string {
  const lines = markdown.split("\n");
  while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  if (lines.length > 0 && headingLevel(lines[0]!) === 1) {
    lines.shift();
    while (lines.length > 0 && lines[0]!.trim() === "") lines.shift();
  }
  const headings = headingLines(lines);
  const highest = Math.min(...headings.values());
  const shift = Math.max(0, parentLevel + 1 - highest);
  return lines
    .map((line, index) => {
      const level = headings.get(index);
      return level === undefined || shift === 0
        ? line
        : `${"#".repeat(Math.min(6, level + shift))}${line.slice(level)}`;
    })
    .join("\n");
}

/** The level of an ATX heading (`## Topics` is 2), undefined for any other line. */
function headingLevel(line: string): number | undefined {
  const match = /^(#{1,6})(?:[ \t]|$)/.exec(line);
  return match ? match[1]!.length : undefined;
}

/** The heading lines outside fenced code blocks (``` or ~~~): line index to level. */
function headingLines(lines: readonly string[]): Map<number, number> {
  const headings = new Map<number, number>();
  let fence: string | undefined;
  for (const [index, line] of lines.entries()) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === undefined ? marker : undefined;
    } else if (fence === undefined) {
      const level = headingLevel(line);
      if (level !== undefined) headings.set(index, level);
    }
  }
  return headings;
}
