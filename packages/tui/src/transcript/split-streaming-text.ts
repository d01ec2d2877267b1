/**
 * Where a streaming answer can be cut so the part before it goes to the terminal's scrollback
 * (ink `<Static>`, written once) while only the rest stays in the live region. gemini-cli does the
 * same (its `findLastSafeSplitPoint`); Codex commits each finished line.
 */

/**
 * The index just after the last blank line that is outside a code fence and followed by a line
 * that starts a block (not indented: an indented line may continue a list item or be code), or -1:
 * the text before it is whole markdown blocks that will not change. Every finished block goes at
 * once, so the live region holds the block being written and no more: a live region taller than
 * the terminal cannot be drawn in place (its top rows would scroll into the scrollback), and a
 * terminal made narrower re-wraps the live rows into more (issue 27).
 */
export function safeSplitPoint(text: string): number {
  if (countLines(text) < 2) return -1;
  let inFence = false;
  let split = -1;
  let blankBefore = false;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) break;
    const line = text.slice(lineStart, lineEnd);
    const blank = line.trim() === "";
    // A blank line outside a fence, then a line that starts a block: a block boundary.
    if (!inFence && blankBefore && !blank && /^\S/.test(line)) split = lineStart;
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    blankBefore = blank && lineStart > 0;
    lineStart = lineEnd + 1;
  }
  // The last line, still streaming: a boundary once its first character has come.
  if (!inFence && blankBefore && /^\S/.test(text.slice(lineStart))) split = lineStart;
  return split;
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
