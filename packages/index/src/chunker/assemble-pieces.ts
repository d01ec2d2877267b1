import type { LooseRange, SyntaxItem, SyntaxPiece } from "./extract-syntax-units.js";

/**
 * Turns the units and loose code of a file into the pieces that become chunks, in file order:
 * - the lines before the first unit (imports, module docs, license) are the `preamble`;
 * - each unit is a piece; units that share a line are merged into the first;
 * - loose code after the first unit (top-level statements, a field between two methods) is a
 *   `module` piece (a `class` piece with the type's symbol inside a type), consecutive loose
 *   statements together with the comments between them; comments, blank lines and closing
 *   brackets alone make no piece.
 * Returns `undefined` when the file has no units.
 */
export function assemblePieces(
  items: readonly SyntaxItem[],
  lines: readonly string[],
): SyntaxPiece[] | undefined {
  const units = mergeOverlappingUnits(
    items.flatMap((item) => {
      if (!("unit" in item)) return [];
      // A class header ends where its first method's comment starts, often after a blank line.
      const rows = trimBlankRows(lines, item.unit.startRow, item.unit.endRow);
      return rows ? [{ ...item.unit, ...rows }] : [];
    }),
  );
  const firstUnit = units[0];
  if (!firstUnit) return undefined;
  const pieces: SyntaxPiece[] = [...units];
  const preamble = trimBlankRows(lines, 0, firstUnit.startRow - 1);
  if (preamble) pieces.push({ ...preamble, kind: "preamble", symbol: undefined });

  let group: LooseRange | undefined;
  const closeGroup = () => {
    if (group && !coveredByUnits(units, group)) {
      pieces.push({
        startRow: group.startRow,
        endRow: group.endRow,
        kind: group.scope === undefined ? "module" : "class",
        symbol: group.scope,
      });
    }
    group = undefined;
  };
  for (const item of items) {
    if ("unit" in item) {
      closeGroup();
      continue;
    }
    const loose = item.loose;
    if (loose.endRow < firstUnit.startRow) continue;
    if (group && group.scope === loose.scope) group.endRow = Math.max(group.endRow, loose.endRow);
    else {
      closeGroup();
      group = { ...loose };
    }
  }
  closeGroup();
  return pieces.sort((left, right) => left.startRow - right.startRow || left.endRow - right.endRow);
}

function mergeOverlappingUnits(units: readonly SyntaxPiece[]): SyntaxPiece[] {
  const merged: SyntaxPiece[] = [];
  for (const unit of units) {
    const previous = merged[merged.length - 1];
    if (previous && unit.startRow <= previous.endRow)
      previous.endRow = Math.max(previous.endRow, unit.endRow);
    else merged.push({ ...unit });
  }
  return merged;
}

function coveredByUnits(units: readonly SyntaxPiece[], range: LooseRange): boolean {
  return units.some((unit) => unit.startRow <= range.startRow && unit.endRow >= range.endRow);
}

/** The range without blank rows at either end, or `undefined` when nothing but blank rows is left. */
export function trimBlankRows(
  lines: readonly string[],
  startRow: number,
  endRow: number,
): { startRow: number; endRow: number } | undefined {
  let start = startRow;
  let end = endRow;
  while (start <= end && (lines[start] ?? "").trim() === "") start++;
  while (end >= start && (lines[end] ?? "").trim() === "") end--;
  return start <= end ? { startRow: start, endRow: end } : undefined;
}
