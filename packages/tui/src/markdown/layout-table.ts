import { displayWidth, padToWidth, truncateToWidth } from "../text/display-width.js";

export type ColumnAlign = "left" | "right" | "center" | null;

/** Between two columns: " │ " (3 cells). */
const SEPARATOR = " │ ";
/** A column is not shrunk below this many cells (room for one character and "…"). */
const MIN_COLUMN = 3;

/**
 * Lays out a table as text lines no wider than `width` cells: cells padded to their column's
 * width and alignment, columns separated by " │ ", a rule under the header. When the natural
 * widths do not fit, the widest column gives up a cell at a time and long cells end in "…".
 */
export function layoutTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ColumnAlign[],
  width: number,
): { header: string; rule: string; rows: string[] } {
  const columns = header.length;
  const widths = header.map((cell, column) =>
    Math.max(displayWidth(cell), ...rows.map((row) => displayWidth(row[column] ?? "")), 1),
  );
  const budget = width - SEPARATOR.length * (columns - 1);
  while (widths.reduce((sum, w) => sum + w, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]! -= 1;
  }
  const line = (cells: readonly string[]) =>
    truncateToWidth(
      widths
        .map((w, column) => padToWidth(truncateToWidth(cells[column] ?? "", w), w, align[column] ?? "left"))
        .join(SEPARATOR)
        .trimEnd(),
      width,
    );
  return {
    header: line(header),
    rule: truncateToWidth(widths.map((w) => "─".repeat(w)).join("─┼─"), width),
    rows: rows.map(line),
  };
}
