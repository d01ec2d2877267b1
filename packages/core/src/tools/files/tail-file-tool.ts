import { open } from "node:fs/promises";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { truncateEnd } from "../seam/truncate-text.js";
import { displayPath, isNotFound, looksBinary } from "./file-system.js";

const CHUNK_BYTES = 64 * 1024;
/** Files up to this size (bytes) are scanned fully to report the total line count. */
const COUNT_LINES_UP_TO_BYTES = 64 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe("File to read the end of."),
    lines: z.number().int().min(1).max(5000).optional().describe("Number of lines from the end. Default 50."),
  }),
);

export const tailFileTool = defineShippedTool({
  name: "tail_file",
  description: "Show the last lines of a file (logs, long outputs) without reading all of it.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.path, access: "read" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.path, "read");
    const shown = displayPath(context, path);
    const wanted = input.lines ?? 50;
    const handle = await open(path, "r").catch((error: unknown) => {
      if (isNotFound(error)) throw new ToolError(`File not found: ${shown}`);
      throw error;
    });
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw new ToolError(`${shown} is a directory`);
      const head = Buffer.alloc(Math.min(8192, stats.size));
      await handle.read(head, 0, head.length, 0);
      if (looksBinary(head)) throw new ToolError(`${shown} looks like a binary file`);
      const tail = await readTail(handle, stats.size, wanted);
      if (tail.length === 0) return `${shown} is empty.`;
      const total = stats.size <= COUNT_LINES_UP_TO_BYTES ? await countLines(handle, stats.size) : undefined;
      const header =
        total === undefined
          ? `... (showing the last ${tail.length} lines of a ${stats.size}-byte file)`
          : `... (${total} total lines, showing last ${tail.length})`;
      const body =
        total === undefined
          ? tail
          : tail.map((line, index) => `${String(total - tail.length + index + 1).padStart(6)}|${line}`);
      return [header, ...body].join("\n");
    } finally {
      await handle.close();
    }
  },
});

async function readTail(
  handle: import("node:fs/promises").FileHandle,
  size: number,
  wanted: number,
): Promise<string[]> {
  const chunks: Buffer[] = [];
  let position = size;
  let newlines = 0;
  while (position > 0 && newlines <= wanted) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, position);
    chunks.unshift(chunk);
    for (const byte of chunk) if (byte === 10) newlines += 1;
  }
  const lines = Buffer.concat(chunks).toString("utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (position > 0) lines.shift();
  return lines
    .slice(-wanted)
    .map((line) =>
      truncateEnd(line.endsWith("\r") ? line.slice(0, -1) : line, MAX_LINE_CHARS, " … [line cut]"),
    );
}

async function countLines(handle: import("node:fs/promises").FileHandle, size: number): Promise<number> {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let count = 0;
  let position = 0;
  let lastByte = 10;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    for (let index = 0; index < bytesRead; index += 1) if (buffer[index] === 10) count += 1;
    lastByte = buffer[bytesRead - 1]!;
    position += bytesRead;
  }
  return lastByte === 10 ? count : count + 1;
}
