import { NyzhiError } from "@nyzhi/config";

/** A patch that does not follow the format; `apply_patch` shows the message to the model. */
export class PatchFormatError extends NyzhiError {
  constructor(message: string) {
    super("tool_failed", message);
  }
}

/** One `@@` section of an `*** Update File:` hunk. */
export interface UpdateChunk {
  /** The text after `@@ `, a line that must occur (once, in order) before the old lines. */
  changeContext: string | undefined;
  /** Context and removed lines, as they must appear in the file. */
  oldLines: string[];
  /** Context and added lines, as they will appear. */
  newLines: string[];
  /**
   * For each new line that is a context line, its index in `oldLines` (so the file's own text,
   * whitespace included, is kept); undefined for added lines.
   */
  newLineSources: (number | undefined)[];
  /** Set by `*** End of File`: the old lines sit at the end of the file. */
  isEndOfFile: boolean;
}

export type PatchHunk =
  | { type: "add"; path: string; contents: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; moveTo: string | undefined; chunks: UpdateChunk[] };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";

/**
 * Parses the Codex patch format:
 * ```
 * *** Begin Patch
 * *** Add File: path        (+ lines)
 * *** Delete File: path
 * *** Update File: path     (optional *** Move to: path, then @@ chunks of ' ', '-', '+' lines)
 * *** End Patch
 * ```
 * A heredoc wrapper (`<<'EOF'` … `EOF`) around the patch is tolerated. Throws a PatchFormatError naming
 * the offending line.
 */
export function parsePatch(patch: string): PatchHunk[] {
  const lines = unwrapHeredoc(patch.replaceAll("\r\n", "\n").trim().split("\n"));
  if (lines[0]?.trim() !== BEGIN)
    throw new PatchFormatError(`The first line of the patch must be '${BEGIN}'`);
  if (lines.at(-1)?.trim() !== END) throw new PatchFormatError(`The last line of the patch must be '${END}'`);
  const body = lines.slice(1, -1);
  const hunks: PatchHunk[] = [];
  let index = 0;
  while (index < body.length) {
    const line = body[index]!;
    const header = line.trim();
    if (header === "") {
      index += 1;
    } else if (header.startsWith(ADD)) {
      const contents: string[] = [];
      index += 1;
      while (index < body.length && body[index]!.startsWith("+")) {
        contents.push(`${body[index]!.slice(1)}\n`);
        index += 1;
      }
      hunks.push({ type: "add", path: header.slice(ADD.length).trim(), contents: contents.join("") });
    } else if (header.startsWith(DELETE)) {
      hunks.push({ type: "delete", path: header.slice(DELETE.length).trim() });
      index += 1;
    } else if (header.startsWith(UPDATE)) {
      const path = header.slice(UPDATE.length).trim();
      index += 1;
      let moveTo: string | undefined;
      if (body[index]?.trim().startsWith(MOVE)) {
        moveTo = body[index]!.trim().slice(MOVE.length).trim();
        index += 1;
      }
      const parsed = parseChunks(body, index, path);
      index = parsed.next;
      if (parsed.chunks.length === 0 && moveTo === undefined) {
        throw new PatchFormatError(`Update hunk for '${path}' is empty`);
      }
      hunks.push({ type: "update", path, moveTo, chunks: parsed.chunks });
    } else {
      throw new PatchFormatError(
        `'${line}' is not a valid hunk header. Valid headers: '${ADD}{path}', '${DELETE}{path}', '${UPDATE}{path}'`,
      );
    }
  }
  for (const hunk of hunks) {
    if (hunk.path === "") throw new PatchFormatError("A hunk header is missing its file path");
  }
  return hunks;
}

function parseChunks(body: string[], start: number, path: string): { chunks: UpdateChunk[]; next: number } {
  const chunks: UpdateChunk[] = [];
  let index = start;
  let current: UpdateChunk | undefined;
  const finish = () => {
    if (current && (current.oldLines.length > 0 || current.newLines.length > 0)) chunks.push(current);
    else if (current?.changeContext !== undefined) {
      throw new PatchFormatError(`Chunk '@@ ${current.changeContext}' in '${path}' has no lines`);
    }
    current = undefined;
  };
  while (index < body.length) {
    const line = body[index]!;
    if (line.startsWith("@@")) {
      finish();
      const context = line.slice(2).trim();
      current = {
        changeContext: context === "" ? undefined : context,
        oldLines: [],
        newLines: [],
        newLineSources: [],
        isEndOfFile: false,
      };
    } else if (line.trim() === END_OF_FILE) {
      if (!current) throw new PatchFormatError(`'${END_OF_FILE}' in '${path}' does not follow any change`);
      current.isEndOfFile = true;
      finish();
    } else if (line.startsWith("***")) {
      break;
    } else {
      current ??= {
        changeContext: undefined,
        oldLines: [],
        newLines: [],
        newLineSources: [],
        isEndOfFile: false,
      };
      const marker = line[0];
      const text = line.slice(1);
      if (line === "" || marker === " ") {
        current.newLineSources.push(current.oldLines.length);
        current.oldLines.push(text);
        current.newLines.push(text);
      } else if (marker === "-") {
        current.oldLines.push(text);
      } else if (marker === "+") {
        current.newLineSources.push(undefined);
        current.newLines.push(text);
      } else {
        throw new PatchFormatError(
          `Unexpected line in the update of '${path}': '${line}'. Every line of a chunk starts with ' ', '-' or '+'`,
        );
      }
    }
    index += 1;
  }
  finish();
  return { chunks, next: index };
}

function unwrapHeredoc(lines: string[]): string[] {
  const first = lines[0]?.trim() ?? "";
  if (
    lines.length >= 3 &&
    /^(?:apply_patch\s+)?<<\s*['"]?\w+['"]?$/.test(first) &&
    /^\w+$/.test(lines.at(-1)!.trim())
  ) {
    return lines
      .slice(1, -1)
      .map((line, index, all) => (index === 0 || index === all.length - 1 ? line.trim() : line));
  }
  return lines;
}

/** Every path a patch names (targets and move destinations), for permission checks. */
export function patchPaths(hunks: PatchHunk[]): string[] {
  return hunks.flatMap((hunk) =>
    hunk.type === "update" && hunk.moveTo ? [hunk.path, hunk.moveTo] : [hunk.path],
  );
}
