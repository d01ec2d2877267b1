import { readFile } from "node:fs/promises";
import type { PatchHunk, UpdateChunk } from "../../../engines/apply-patch/parse-patch.js";
import { seekSequence } from "../../../engines/apply-patch/seek-sequence.js";
import { ToolError } from "../../seam/define-tool.js";
import type { ToolContext } from "../../seam/tool-types.js";
import { displayPath, isNotFound, looksBinary } from "../file-system.js";
import type { PlannedWrite } from "../write-all-or-nothing.js";

export interface PatchPlan {
  writes: PlannedWrite[];
  /** One line per hunk: `A path`, `M path`, `D path`, `R from -> to`. */
  summary: string[];
}

/**
 * Works out every file's new content in memory, verifying all context, before anything is
 * written. Hunks apply in order over a virtual view of the files, so a patch may touch the same
 * file twice. Throws a ToolError (and nothing has been written) when any hunk does not apply.
 */
export async function computePatch(hunks: PatchHunk[], context: ToolContext): Promise<PatchPlan> {
  const files = new Map<string, { original: string | undefined; current: string | undefined }>();
  const load = async (path: string) => {
    let entry = files.get(path);
    if (!entry) {
      const original = await readTextOrUndefined(context, path);
      entry = { original, current: original };
      files.set(path, entry);
    }
    return entry;
  };
  const summary: string[] = [];
  for (const hunk of hunks) {
    const path = await context.paths.resolve(hunk.path, "write");
    const shown = displayPath(context, path);
    const entry = await load(path);
    if (hunk.type === "add") {
      entry.current = hunk.contents;
      summary.push(`A ${shown}`);
    } else if (hunk.type === "delete") {
      if (entry.current === undefined) throw new ToolError(`Cannot delete ${shown}: the file does not exist`);
      entry.current = undefined;
      summary.push(`D ${shown}`);
    } else {
      if (entry.current === undefined) throw new ToolError(`Cannot update ${shown}: the file does not exist`);
      const updated = applyChunks(entry.current, hunk.chunks, shown);
      if (hunk.moveTo === undefined) {
        entry.current = updated;
        summary.push(`M ${shown}`);
        continue;
      }
      const destination = await context.paths.resolve(hunk.moveTo, "write");
      const target = await load(destination);
      if (destination !== path && target.current !== undefined) {
        throw new ToolError(
          `Cannot move ${shown} to ${displayPath(context, destination)}: the destination exists`,
        );
      }
      entry.current = undefined;
      target.current = updated;
      summary.push(`R ${shown} -> ${displayPath(context, destination)}`);
    }
  }
  const writes = [...files.entries()]
    .filter(([, entry]) => entry.original !== entry.current)
    .map(([path, entry]): PlannedWrite => ({ path, before: entry.original, after: entry.current }));
  return { writes, summary };
}

/** Applies update chunks to a file's text, keeping its line endings and final newline. */
export function applyChunks(text: string, chunks: UpdateChunk[], shownPath: string): string {
  const crlf = text.includes("\r\n");
  const endsWithNewline = text === "" || text.endsWith("\n");
  const lines = (crlf ? text.replaceAll("\r\n", "\n") : text).split("\n");
  if (lines.at(-1) === "") lines.pop();
  const replacements: { start: number; length: number; lines: string[] }[] = [];
  let lineIndex = 0;
  for (const chunk of chunks) {
    if (chunk.changeContext !== undefined) {
      const found = seekSequence(lines, [chunk.changeContext], lineIndex, false);
      if (found === undefined) {
        throw new ToolError(`Failed to find context '${chunk.changeContext}' in ${shownPath}`);
      }
      lineIndex = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      replacements.push({ start: lines.length, length: 0, lines: chunk.newLines });
      continue;
    }
    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    let sources = chunk.newLineSources;
    let found = seekSequence(lines, oldLines, lineIndex, chunk.isEndOfFile);
    if (found === undefined && oldLines.at(-1) === "") {
      // A trailing blank context line often stands for the file's final newline.
      oldLines = oldLines.slice(0, -1);
      if (newLines.at(-1) === "") {
        newLines = newLines.slice(0, -1);
        sources = sources.slice(0, -1);
      }
      found = seekSequence(lines, oldLines, lineIndex, chunk.isEndOfFile);
    }
    if (found === undefined) {
      throw new ToolError(`Failed to find expected lines in ${shownPath}:\n${chunk.oldLines.join("\n")}`);
    }
    const start = found;
    // Context lines keep the file's own text (the patch may differ in whitespace or punctuation).
    const merged = newLines.map((line, index) => {
      const source = sources[index];
      return source !== undefined && source < oldLines.length ? lines[start + source]! : line;
    });
    replacements.push({ start, length: oldLines.length, lines: merged });
    lineIndex = found + oldLines.length;
  }
  replacements.sort((left, right) => left.start - right.start);
  for (const replacement of replacements.reverse()) {
    lines.splice(replacement.start, replacement.length, ...replacement.lines);
  }
  const joined = lines.join(crlf ? "\r\n" : "\n");
  return endsWithNewline && lines.length > 0 ? `${joined}${crlf ? "\r\n" : "\n"}` : joined;
}

async function readTextOrUndefined(context: ToolContext, path: string): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    if ((error as NodeJS.ErrnoException).code === "EISDIR") {
      throw new ToolError(`${displayPath(context, path)} is a directory, not a file`);
    }
    throw error;
  }
  if (looksBinary(bytes))
    throw new ToolError(`${displayPath(context, path)} is a binary file; apply_patch edits text only`);
  return bytes.toString("utf8");
}
