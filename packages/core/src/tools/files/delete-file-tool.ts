import { lstat, readdir, rmdir, unlink } from "node:fs/promises";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { displayPath, isNotFound } from "./file-system.js";
import { trackPaths } from "./tracked-tree.js";

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe("File (or empty directory) to delete."),
  }),
);

export const deleteFileTool = defineShippedTool({
  name: "delete_file",
  description: "Delete a file or an empty directory. Non-empty directories are refused.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [{ path: input.path, access: "write" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.path, "write");
    const shown = displayPath(context, path);
    const stats = await lstat(path).catch((error: unknown) => {
      if (isNotFound(error)) throw new ToolError(`Not found: ${shown}`);
      throw error;
    });
    if (stats.isDirectory()) {
      const entries = await readdir(path);
      if (entries.length > 0) {
        throw new ToolError(
          `${shown} is a directory with ${entries.length} entries; only empty directories can be deleted`,
        );
      }
      await rmdir(path);
      return `Deleted empty directory ${shown}`;
    }
    await trackPaths(context, [path], "delete_file", () => unlink(path));
    return `Deleted ${shown}`;
  },
});
