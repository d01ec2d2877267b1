import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { countOccurrences, displayPath, readTextForEdit, writeKeepingMode } from "./file-system.js";
import { unifiedDiff } from "./unified-diff.js";

const inputSchema = z.lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("Path of the file, absolute or relative to the working directory."),
    old_string: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
    new_string: z.string().describe("Text to put in its place."),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence instead of exactly one. Default false."),
  }),
);

export interface Replacement {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/**
 * Applies one replacement to `content`. Without replace_all the text must occur exactly once.
 * When the file uses CRLF line endings and the text (written with LF) is not found, it is retried
 * with CRLF. Throws a ToolError the model can act on.
 */
export function applyReplacement(content: string, replacement: Replacement): string {
  if (replacement.old_string === replacement.new_string) {
    throw new ToolError("old_string and new_string are identical; nothing would change");
  }
  let oldText = replacement.old_string;
  let newText = replacement.new_string;
  let count = countOccurrences(content, oldText);
  if (count === 0 && content.includes("\r\n") && oldText.includes("\n") && !oldText.includes("\r\n")) {
    oldText = oldText.replaceAll("\n", "\r\n");
    newText = newText.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n");
    count = countOccurrences(content, oldText);
  }
  if (count === 0) throw new ToolError("old_string not found in file");
  if (count > 1 && !replacement.replace_all) {
    throw new ToolError(
      `old_string found ${count} times -- it must appear exactly once (add context or set replace_all)`,
    );
  }
  // split/join, not String.replace: `$&` and friends in new_string must stay literal.
  if (replacement.replace_all) return content.split(oldText).join(newText);
  const index = content.indexOf(oldText);
  return content.slice(0, index) + newText + content.slice(index + oldText.length);
}

export const editTool = defineShippedTool({
  name: "edit",
  description:
    "Replace text in a file. old_string must match exactly (whitespace included) and occur once, unless replace_all is set. Read the file first.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [{ path: input.file_path, access: "write" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.file_path, "write");
    const before = await readTextForEdit(context, path);
    const after = applyReplacement(before, input);
    await context.changes.beforeChange(path, "edit");
    try {
      await writeKeepingMode(path, after);
    } finally {
      await context.changes.afterChange(path, "edit");
    }
    const replaced = input.replace_all ? countOccurrences(before, input.old_string) || 1 : 1;
    const shown = displayPath(context, path);
    const header = replaced > 1 ? `Edited ${shown} (${replaced} replacements)` : `Edited ${shown}`;
    return {
      output: `${header}\n${unifiedDiff(before, after, { maxLines: 50 })}`,
      metadata: { path, replaced },
    };
  },
});
