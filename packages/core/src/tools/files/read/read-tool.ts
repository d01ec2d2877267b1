import { closeSync, openSync, readSync, statSync } from "node:fs";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../../seam/define-tool.js";
import { BINARY_SNIFF_BYTES, displayPath, formatBytes, isNotFound, looksBinary } from "../file-system.js";
import { readLineWindow } from "./read-line-window.js";

/** Default number of lines returned. */
export const DEFAULT_READ_LIMIT = 2000;
/** Lines longer than this (code points) are cut. */
export const MAX_READ_LINE_CHARS = 2000;
/** Files up to this size (bytes) are scanned to the end so the total line count can be reported. */
const COUNT_LINES_UP_TO_BYTES = 64 * 1024 * 1024;

const inputSchema = z.lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("Path of the file, absolute or relative to the working directory."),
    offset: z.number().int().min(1).optional().describe("First line to read, 1-based. Default 1."),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Number of lines to read. Default ${DEFAULT_READ_LIMIT}.`),
  }),
);

export const readTool = defineShippedTool({
  name: "read",
  description:
    "Read a text file. Returns numbered lines (`     1|text`). Use offset/limit to page through long files.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.file_path, access: "read" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.file_path, "read");
    const shown = displayPath(context, path);
    let size: number;
    try {
      const stats = statSync(path);
      if (stats.isDirectory())
        throw new ToolError(`${shown} is a directory; use list_dir to see its entries.`);
      size = stats.size;
    } catch (error) {
      if (isNotFound(error)) throw new ToolError(`File not found: ${shown}`);
      throw error;
    }
    if (size === 0) return `${shown} is empty.`;
    if (startsBinary(path)) {
      return {
        output: `${shown} looks like a binary file (${formatBytes(size)}); it cannot be shown as text.`,
        isError: true,
      };
    }
    const offset = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    const window = await readLineWindow(path, {
      offset,
      limit,
      maxLineChars: MAX_READ_LINE_CHARS,
      countLinesUpToBytes: COUNT_LINES_UP_TO_BYTES,
    });
    if (window.lines.length === 0) {
      const total = window.totalLines === undefined ? "" : ` (${window.totalLines} lines)`;
      throw new ToolError(`offset ${offset} is past the end of ${shown}${total}.`);
    }
    const numbered = window.lines.map((line, index) => `${String(offset + index).padStart(6)}|${line}`);
    const last = offset + window.lines.length - 1;
    const notes: string[] = [];
    if (window.totalLines === undefined) {
      notes.push(
        `(showing lines ${offset}-${last}; the file is ${formatBytes(size)}, more lines follow — use offset to read on)`,
      );
    } else if (offset > 1 || last < window.totalLines) {
      notes.push(
        `(showing lines ${offset}-${last} of ${window.totalLines}${last < window.totalLines ? "; use offset to read more" : ""})`,
      );
    }
    if (window.cutLines > 0)
      notes.push(`(${window.cutLines} lines longer than ${MAX_READ_LINE_CHARS} characters were cut)`);
    return {
      output: [...numbered, ...notes].join("\n"),
      metadata: { path, firstLine: offset, lastLine: last, totalLines: window.totalLines ?? null },
    };
  },
});

/** One small synchronous read: cheaper than three thread-pool round trips. */
function startsBinary(path: string): boolean {
  const descriptor = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const bytesRead = readSync(descriptor, buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    closeSync(descriptor);
  }
}
