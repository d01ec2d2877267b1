import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { displayPath, formatBytes, isNotFound } from "./file-system.js";

/** Most entries listed. */
const MAX_ENTRIES = 1000;

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).optional().describe("Directory to list. Default: the working directory."),
  }),
);

export const listDirTool = defineShippedTool({
  name: "list_dir",
  description:
    "List a directory: sub-directories first, then files with their sizes. Hidden entries are skipped unless the directory itself is hidden.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.path ?? ".", access: "read" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.path ?? ".", "read");
    const shown = displayPath(context, path);
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(path, { withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) throw new ToolError(`Directory not found: ${shown}`);
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR")
        throw new ToolError(`${shown} is a file, not a directory`);
      throw error;
    }
    const showHidden = basename(path).startsWith(".");
    const visible = entries.filter((entry) => showHidden || !entry.name.startsWith("."));
    visible.sort(
      (left, right) =>
        Number(right.isDirectory()) - Number(left.isDirectory()) || compareNames(left.name, right.name),
    );
    const lines: string[] = [];
    for (const entry of visible.slice(0, MAX_ENTRIES)) {
      if (entry.isDirectory()) {
        lines.push(`[DIR]  ${entry.name}/`);
      } else if (entry.isSymbolicLink()) {
        lines.push(`[LINK] ${entry.name}`);
      } else {
        const size = await stat(join(path, entry.name)).then(
          (stats) => formatBytes(stats.size),
          () => "?",
        );
        lines.push(`[FILE] ${entry.name} (${size})`);
      }
    }
    if (visible.length > MAX_ENTRIES) lines.push(`... (${visible.length - MAX_ENTRIES} more entries)`);
    if (lines.length === 0) return `${shown} is empty.`;
    return lines.join("\n");
  },
});

function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
