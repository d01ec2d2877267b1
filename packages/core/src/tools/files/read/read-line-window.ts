import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { truncateEnd } from "../../seam/truncate-text.js";

const CHUNK_BYTES = 64 * 1024;
/** Chunks read between two yields to the event loop (1 MiB). */
const CHUNKS_PER_YIELD = 16;

export interface LineWindowOptions {
  /** First line to return, 1-based. */
  offset: number;
  /** Number of lines to return. */
  limit: number;
  /** Lines longer than this many code points are cut. */
  maxLineChars: number;
  /** Keep scanning past the window to count lines only while the file is at most this many bytes. */
  countLinesUpToBytes: number;
}

export interface LineWindow {
  /** The requested lines (without line endings), already cut to `maxLineChars`. */
  lines: string[];
  /** Total lines in the file, or undefined when the file was too large to count. */
  totalLines: number | undefined;
  /** How many returned lines were cut. */
  cutLines: number;
}

/**
 * Reads lines `offset .. offset+limit-1` of a file in chunks, never holding more than one chunk
 * and the requested lines in memory (a multi-gigabyte log or a one-line minified bundle is fine).
 * Reads are synchronous (a typical file is one chunk, and thread-pool round trips cost more than
 * the reads), yielding to the event loop after every 1 MiB so a long count never stalls it.
 */
export async function readLineWindow(path: string, options: LineWindowOptions): Promise<LineWindow> {
  const descriptor = openSync(path, "r");
  try {
    const size = fstatSync(descriptor).size;
    const firstIndex = options.offset - 1;
    const lastIndex = firstIndex + options.limit - 1;
    // Bytes kept per line: enough for maxLineChars code points of UTF-8 plus one to notice the cut.
    const maxLineBytes = options.maxLineChars * 4 + 4;
    const lines: string[] = [];
    let cutLines = 0;
    let lineIndex = 0;
    let parts: Buffer[] = [];
    let keptBytes = 0;
    let overflow = false;
    let sawBytesOnLine = false;
    // A line is decoded straight from the chunk when it lies wholly in it (the usual case), else
    // from the pieces kept across chunks.
    const finishLine = (whole?: string) => {
      if (lineIndex >= firstIndex && lineIndex <= lastIndex) {
        let text =
          whole ?? (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts)).toString("utf8");
        if (text.endsWith("\r")) text = text.slice(0, -1);
        const cut = truncateEnd(text, options.maxLineChars, " … [line cut]");
        if (overflow || cut !== text) cutLines += 1;
        lines.push(overflow && cut === text ? `${text} … [line cut]` : cut);
      }
      lineIndex += 1;
      parts = [];
      keptBytes = 0;
      overflow = false;
      sawBytesOnLine = false;
    };
    // Not zero-filled, and not much larger than the file: a small file is one small read (a file
    // whose size is unknown, such as one under /proc, gets a whole chunk).
    let buffer = Buffer.allocUnsafe(size > 0 ? Math.min(CHUNK_BYTES, Math.max(size, 4096)) : CHUNK_BYTES);
    let position = 0;
    for (let chunks = 1; ; chunks += 1) {
      if (chunks % CHUNKS_PER_YIELD === 0) await nextMacrotask();
      // A file that grew past its size at open is read on in whole chunks.
      if (position > size && buffer.length < CHUNK_BYTES) buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const bytesRead = readSync(descriptor, buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      while (start < chunk.length) {
        if (lineIndex > lastIndex && size > options.countLinesUpToBytes) {
          return { lines, totalLines: undefined, cutLines };
        }
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? chunk.length : newline;
        if (end > start) sawBytesOnLine = true;
        const wanted = lineIndex >= firstIndex && lineIndex <= lastIndex;
        if (wanted && newline !== -1 && parts.length === 0 && end - start <= maxLineBytes) {
          finishLine(chunk.toString("utf8", start, end));
          start = newline + 1;
          continue;
        }
        if (wanted && end > start) {
          const room = maxLineBytes - keptBytes;
          if (room > 0) {
            const piece = Buffer.from(chunk.subarray(start, Math.min(end, start + room)));
            parts.push(piece);
            keptBytes += piece.length;
          }
          if (end - start > room) overflow = true;
        }
        if (newline === -1) break;
        finishLine();
        start = newline + 1;
      }
    }
    if (sawBytesOnLine) finishLine();
    return { lines, totalLines: lineIndex, cutLines };
  } finally {
    closeSync(descriptor);
  }
}
