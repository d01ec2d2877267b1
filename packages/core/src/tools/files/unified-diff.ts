/** Lines of context around each change in a diff. */
const CONTEXT_LINES = 3;
/** Above this many cells (old × new lines) the middle is shown as one replaced block. */
const MAX_LCS_CELLS = 4_000_000;

type Operation = { kind: "equal" | "delete" | "insert"; line: string };

export interface DiffOptions {
  /** Cap on the diff's lines; the rest is summarised. Default 50. */
  maxLines?: number;
}

/**
 * A short unified diff of two texts (hunks with 3 lines of context, no file headers), for tool
 * output and approval previews. Empty string when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, options: DiffOptions = {}): string {
  if (before === after) return "";
  const operations = diffLines(splitLines(before), splitLines(after));
  const lines = formatHunks(operations);
  const maxLines = options.maxLines ?? 50;
  if (lines.length <= maxLines) return lines.join("\n");
  return [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more diff lines)`].join("\n");
}

/** Counts added and removed lines. */
export function diffStats(before: string, after: string): { added: number; removed: number } {
  const operations = diffLines(splitLines(before), splitLines(after));
  let added = 0;
  let removed = 0;
  for (const operation of operations) {
    if (operation.kind === "insert") added += 1;
    if (operation.kind === "delete") removed += 1;
  }
  return { added, removed };
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function diffLines(oldLines: string[], newLines: string[]): Operation[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix])
    prefix += 1;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const oldMiddle = oldLines.slice(prefix, oldLines.length - suffix);
  const newMiddle = newLines.slice(prefix, newLines.length - suffix);
  return [
    ...oldLines.slice(0, prefix).map((line): Operation => ({ kind: "equal", line })),
    ...diffMiddle(oldMiddle, newMiddle),
    ...oldLines.slice(oldLines.length - suffix).map((line): Operation => ({ kind: "equal", line })),
  ];
}

function diffMiddle(oldLines: string[], newLines: string[]): Operation[] {
  if (oldLines.length * newLines.length > MAX_LCS_CELLS) {
    return [
      ...oldLines.map((line): Operation => ({ kind: "delete", line })),
      ...newLines.map((line): Operation => ({ kind: "insert", line })),
    ];
  }
  const rows = oldLines.length + 1;
  const columns = newLines.length + 1;
  const table = new Uint32Array(rows * columns);
  for (let i = oldLines.length - 1; i >= 0; i -= 1) {
    for (let j = newLines.length - 1; j >= 0; j -= 1) {
      table[i * columns + j] =
        oldLines[i] === newLines[j]
          ? table[(i + 1) * columns + j + 1]! + 1
          : Math.max(table[(i + 1) * columns + j]!, table[i * columns + j + 1]!);
    }
  }
  const operations: Operation[] = [];
  let i = 0;
  let j = 0;
  while (i < oldLines.length || j < newLines.length) {
    if (i < oldLines.length && j < newLines.length && oldLines[i] === newLines[j]) {
      operations.push({ kind: "equal", line: oldLines[i]! });
      i += 1;
      j += 1;
    } else if (
      i < oldLines.length &&
      (j === newLines.length || table[(i + 1) * columns + j]! >= table[i * columns + j + 1]!)
    ) {
      operations.push({ kind: "delete", line: oldLines[i]! });
      i += 1;
    } else {
      operations.push({ kind: "insert", line: newLines[j]! });
      j += 1;
    }
  }
  return operations;
}

function formatHunks(operations: Operation[]): string[] {
  const changed = operations.flatMap((operation, index) => (operation.kind === "equal" ? [] : [index]));
  const output: string[] = [];
  let cursor = 0;
  while (cursor < changed.length) {
    const start = Math.max(0, changed[cursor]! - CONTEXT_LINES);
    let end = changed[cursor]!;
    while (cursor + 1 < changed.length && changed[cursor + 1]! - end <= CONTEXT_LINES * 2) {
      cursor += 1;
      end = changed[cursor]!;
    }
    cursor += 1;
    const stop = Math.min(operations.length, end + CONTEXT_LINES + 1);
    output.push(hunkHeader(operations, start, stop));
    for (const operation of operations.slice(start, stop)) {
      const marker = operation.kind === "equal" ? " " : operation.kind === "delete" ? "-" : "+";
      output.push(`${marker}${operation.line}`);
    }
  }
  return output;
}

function hunkHeader(operations: Operation[], start: number, stop: number): string {
  let oldStart = 1;
  let newStart = 1;
  for (const operation of operations.slice(0, start)) {
    if (operation.kind !== "insert") oldStart += 1;
    if (operation.kind !== "delete") newStart += 1;
  }
  const slice = operations.slice(start, stop);
  const oldCount = slice.filter((operation) => operation.kind !== "insert").length;
  const newCount = slice.filter((operation) => operation.kind !== "delete").length;
  return `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`;
}
