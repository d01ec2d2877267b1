import type { CodeChunk } from "../types.js";
import {
  CHARS_PER_TOKEN,
  MAX_CHUNK_TOKENS,
  SPLIT_OVERLAP_LINES,
  WINDOW_LINES,
  WINDOW_OVERLAP_LINES,
} from "./chunk-limits.js";
import type { SyntaxPiece } from "./extract-syntax-units.js";

const MAX_CHUNK_CHARS = MAX_CHUNK_TOKENS * CHARS_PER_TOKEN;
/** A signature repeated in every part may take at most this share of a part. */
const MAX_SIGNATURE_CHARS = MAX_CHUNK_CHARS / 4;

interface ChunkContext {
  path: string;
  language: string;
  lines: readonly string[];
}

/**
 * One chunk for a piece within the budget ({@link MAX_CHUNK_TOKENS} at {@link CHARS_PER_TOKEN}
 * characters a token); a longer piece becomes parts that each fill the budget, each repeating the
 * last {@link SPLIT_OVERLAP_LINES} lines of the part before it. A part after the first starts
 * with the unit's signature lines (its declaration, up to the body) so that it still says what it
 * belongs to; its `startLine`/`endLine` are its own lines, below that signature.
 */
export function splitPiece(piece: SyntaxPiece, context: ChunkContext): CodeChunk[] {
  const { lines } = context;
  const chunk = (startRow: number, endRow: number, prefix = ""): CodeChunk => ({
    path: context.path,
    startLine: startRow + 1,
    endLine: endRow + 1,
    symbol: piece.symbol,
    kind: piece.kind,
    language: context.language,
    content: prefix + lines.slice(startRow, endRow + 1).join("\n"),
  });
  const size = (row: number) => (lines[row] ?? "").length + 1;
  let total = 0;
  for (let row = piece.startRow; row <= piece.endRow; row++) total += size(row);
  if (total <= MAX_CHUNK_CHARS) return [chunk(piece.startRow, piece.endRow)];

  const signature = signaturePrefix(piece, lines);
  const parts: CodeChunk[] = [];
  let partStart = piece.startRow;
  let previousEnd = piece.startRow - 1;
  while (true) {
    const prefix = parts.length > 0 && signature && partStart > signature.endRow ? signature.text : "";
    const budget = MAX_CHUNK_CHARS - prefix.length;
    let partEnd = partStart;
    let used = size(partStart);
    // Fill the budget, and always take at least one line the previous part did not have.
    while (partEnd < piece.endRow && (partEnd <= previousEnd || used + size(partEnd + 1) <= budget)) {
      partEnd++;
      used += size(partEnd);
    }
    parts.push(chunk(partStart, partEnd, prefix));
    if (partEnd >= piece.endRow) return parts;
    previousEnd = partEnd;
    partStart = Math.max(partStart + 1, partEnd + 1 - overlapRows(partEnd, size));
  }
}

/** Up to {@link SPLIT_OVERLAP_LINES} lines, but no more than a quarter of the budget. */
function overlapRows(partEnd: number, size: (row: number) => number): number {
  let rows = 0;
  let used = 0;
  while (rows < SPLIT_OVERLAP_LINES && used + size(partEnd - rows) <= MAX_CHUNK_CHARS / 4) {
    used += size(partEnd - rows);
    rows++;
  }
  return rows;
}

function signaturePrefix(
  piece: SyntaxPiece,
  lines: readonly string[],
): { text: string; endRow: number } | undefined {
  if (!piece.signature) return undefined;
  // A very long signature is cut at a line boundary (its first line is always kept).
  let text = "";
  for (let row = piece.signature.startRow; row <= piece.signature.endRow; row++) {
    const line = `${lines[row] ?? ""}\n`;
    if (row > piece.signature.startRow && text.length + line.length > MAX_SIGNATURE_CHARS) break;
    text += line;
  }
  return { text, endRow: piece.signature.endRow };
}

/**
 * Windows of {@link WINDOW_LINES} lines, each repeating the last {@link WINDOW_OVERLAP_LINES} of
 * the one before, for files the chunker has no grammar for (or could not parse). A window with
 * nothing but blank lines past that overlap is left out.
 */
export function windowChunks(context: ChunkContext): CodeChunk[] {
  const { lines } = context;
  const chunks: CodeChunk[] = [];
  const step = WINDOW_LINES - WINDOW_OVERLAP_LINES;
  for (let startRow = 0; startRow < lines.length; startRow += step) {
    const endRow = Math.min(startRow + WINDOW_LINES, lines.length) - 1;
    const window = lines.slice(startRow, endRow + 1);
    // A window whose lines past the overlap are all blank adds nothing to the one before.
    const fresh = startRow === 0 ? window : window.slice(WINDOW_OVERLAP_LINES);
    if (fresh.some((line) => line.trim() !== "")) {
      chunks.push({
        path: context.path,
        startLine: startRow + 1,
        endLine: endRow + 1,
        symbol: undefined,
        kind: "window",
        language: context.language,
        content: window.join("\n"),
      });
    }
    if (endRow >= lines.length - 1) break;
  }
  return chunks;
}
