import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { applyReplacement } from "./edit-tool.js";
import { displayPath, readTextForEdit } from "./file-system.js";
import { diffStats } from "./unified-diff.js";
import { type PlannedWrite, writeAllOrNothing } from "./write-all-or-nothing.js";

const editSchema = z.lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("Path of the file to edit."),
    old_string: z.string().min(1).describe("Exact text to replace."),
    new_string: z.string().describe("Replacement text."),
    replace_all: z.boolean().optional().describe("Replace every occurrence. Default false."),
  }),
);

const inputSchema = z.lazy(() =>
  z.object({
    edits: z
      .array(editSchema)
      .min(1)
      .describe(
        "Edits applied in order; several may target the same file. If any fails, no file is changed.",
      ),
  }),
);

export const multiEditTool = defineShippedTool({
  name: "multi_edit",
  description:
    "Apply several exact-text replacements, across one or more files, as one all-or-nothing change. Each edit follows the rules of edit.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => input.edits.map((edit) => ({ path: edit.file_path, access: "write" as const })),
  async execute(input, context) {
    const planned = await planEdits(input.edits, context);
    await writeAllOrNothing(planned, context, "multi_edit");
    const lines = planned.map((write) => {
      const stats = diffStats(write.before ?? "", write.after ?? "");
      return `${displayPath(context, write.path)} (+${stats.added} -${stats.removed})`;
    });
    return {
      output: `Applied ${input.edits.length} edits to ${planned.length} files:\n${lines.join("\n")}`,
      metadata: { files: planned.map((write) => write.path) },
    };
  },
});

async function planEdits(edits: z.infer<typeof editSchema>[], context: ToolContext): Promise<PlannedWrite[]> {
  const byPath = new Map<string, PlannedWrite>();
  for (const [index, edit] of edits.entries()) {
    const path = await context.paths.resolve(edit.file_path, "write");
    let planned = byPath.get(path);
    if (!planned) {
      const before = await readTextForEdit(context, path).catch((error: unknown) => {
        throw new ToolError(`edit ${index + 1}: ${(error as Error).message}; no file was changed`);
      });
      planned = { path, before, after: before };
      byPath.set(path, planned);
    }
    try {
      planned.after = applyReplacement(planned.after ?? "", edit);
    } catch (error) {
      throw new ToolError(
        `edit ${index + 1} (${displayPath(context, path)}): ${(error as Error).message}; no file was changed`,
      );
    }
  }
  return [...byPath.values()];
}
