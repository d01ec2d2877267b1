import { type StructuredPatchHunk, structuredPatch } from "diff";

/** Lines of context around each change in a diff. */
const CONTEXT_LINES = 3;
/**
 * Most changed lines (inserted plus deleted) jsdiff looks for before giving up; past it the texts
 * are shown as one replaced block. Myers' algorithm costs about (lines × changes): two unrelated
 * 10,000-line files give up after ~50 ms here instead of searching for seconds.
 */
const MAX_EDIT_LENGTH = 1000;

export interface DiffOptions {
  /** Cap on the diff's lines; the rest is summarised. Default 50. */
  maxLines?: number;
}

/**
 * A short unified diff of two texts (hunks with 3 lines of context, no file headers), for tool
 * output and approval previews, computed by jsdiff. Empty string when the texts are equal; a
 * missing newline at the end of either text is not a change.
 */
export function unifiedDiff(before: string, after: string, options: DiffOptions = {}): string {
  if (before === after) return "";
  const lines: string[] = [];
  for (const hunk of diffHunks(before, after)) {
    // An empty side starts at the line before (`@@ -0,0 +1,2 @@`), as diff -u writes it.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  const maxLines = options.maxLines ?? 50;
  if (lines.length <= maxLines) return lines.join("\n");
  return [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more diff lines)`].join("\n");
}

/** Counts added and removed lines. */
export function diffStats(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of diffHunks(before, after)) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added += 1;
      else if (line.startsWith("-")) removed += 1;
    }
  }
  return { added, removed };
}

function diffHunks(before: string, after: string): StructuredPatchHunk[] {
  const oldText = withFinalNewline(before);
  const newText = withFinalNewline(after);
  if (oldText === newText) return [];
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  return patch ? patch.hunks : [wholeReplacement(oldText, newText)];
}

/** Every old line removed, every new line added: for texts too different to diff cheaply. */
function wholeReplacement(oldText: string, newText: string): StructuredPatchHunk {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  return {
    oldStart: 1,
    oldLines: oldLines.length,
    newStart: 1,
    newLines: newLines.length,
    lines: [...oldLines.map((line) => `-${line}`), ...newLines.map((line) => `+${line}`)],
  };
}

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

function splitLines(text: string): string[] {
  return text === "" ? [] : text.slice(0, -1).split("\n");
}
