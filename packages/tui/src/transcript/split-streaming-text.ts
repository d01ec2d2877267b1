/**
 * Where a streaming answer can be cut so the part before it goes to the terminal's scrollback
 * (ink `<Static>`, written once) while only the rest stays in the live region. A live region taller
 * than the terminal makes ink clear the screen and rewrite the whole scrollback on every frame
 * (megabytes a second under a long transcript), so a long answer must not stay live whole.
 * gemini-cli does the same (its `findLastSafeSplitPoint`).
 */

/** Live text this long (characters, or lines) is split at its last safe point. */
export const SPLIT_AFTER_CHARS = 1200;
export const SPLIT_AFTER_LINES = 8;

/**
 * The index just after the last blank line (`\n\n`) that is outside a code fence, or -1: the text
 * before it is whole markdown blocks that will not change. Only looked for once the text is long
 * (see the limits above), so short answers stay one item.
 */
export function safeSplitPoint(text: string): number {
  if (text.length < SPLIT_AFTER_CHARS && countLines(text) < SPLIT_AFTER_LINES) return -1;
  let inFence = false;
  let split = -1;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) break;
    const line = text.slice(lineStart, lineEnd);
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    // A blank line outside a fence, with more text after it: a block boundary.
    else if (!inFence && line.trim() === "" && lineStart > 0 && lineEnd + 1 < text.length)
      split = lineEnd + 1;
    lineStart = lineEnd + 1;
  }
  return split;
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
