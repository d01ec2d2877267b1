/** One displayed line of a diff, with the line number it has in the old or new file. */
export interface DiffRow {
  kind: "hunk" | "added" | "removed" | "context" | "note";
  text: string;
  /** Line number in the old file (removed and context lines). */
  oldLine?: number | undefined;
  /** Line number in the new file (added and context lines). */
  newLine?: number | undefined;
}

export interface DiffSummary {
  rows: DiffRow[];
  added: number;
  removed: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * Parses unified diff text (hunks with or without `---`/`+++` file headers) into rows with line
 * numbers. Lines outside a hunk (headers, "... (N more diff lines)") become `note` rows.
 */
export function parseUnifiedDiff(diff: string): DiffSummary {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  let added = 0;
  let removed = 0;
  for (const line of diff.replace(/\n$/, "").split("\n")) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      inHunk = true;
      rows.push({ kind: "hunk", text: line });
      continue;
    }
    if (!inHunk || line.startsWith("\\")) {
      if (line.startsWith("--- ") || line.startsWith("+++ ") || line.startsWith("diff ")) continue;
      if (line !== "") rows.push({ kind: "note", text: line });
      continue;
    }
    const marker = line[0];
    const body = line.slice(1);
    if (marker === "+") {
      rows.push({ kind: "added", text: body, newLine });
      newLine += 1;
      added += 1;
    } else if (marker === "-") {
      rows.push({ kind: "removed", text: body, oldLine });
      oldLine += 1;
      removed += 1;
    } else if (marker === " " || line === "") {
      rows.push({ kind: "context", text: body, oldLine, newLine });
      oldLine += 1;
      newLine += 1;
    } else {
      inHunk = false;
      rows.push({ kind: "note", text: line });
    }
  }
  return { rows, added, removed };
}

/** Whether a text contains a unified diff hunk. */
export function containsDiff(text: string): boolean {
  return /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m.test(text);
}

/** The diff part of a text that starts with other lines ("Edited a.ts\n@@ …"): from its first hunk on. */
export function diffPart(text: string): string {
  const match = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m.exec(text);
  return match ? text.slice(match.index) : "";
}
