import { lstat, readlink, stat } from "node:fs/promises";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { displayPath, formatBytes, isNotFound } from "./file-system.js";

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe("File or directory to describe."),
  }),
);

export const fileInfoTool = defineShippedTool({
  name: "file_info",
  description: "Show a path's type, size, permissions and modification times.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.path, access: "read" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.path, "read");
    const shown = displayPath(context, path);
    let link: Awaited<ReturnType<typeof lstat>>;
    try {
      link = await lstat(path);
    } catch (error) {
      if (isNotFound(error)) throw new ToolError(`Not found: ${shown}`);
      throw error;
    }
    const lines = [`path: ${shown}`];
    let stats = link;
    if (link.isSymbolicLink()) {
      lines.push(`symlink to: ${await readlink(path)}`);
      stats = await stat(path).catch(() => link);
    }
    const type = stats.isDirectory()
      ? "directory"
      : stats.isFile()
        ? "file"
        : stats.isSymbolicLink()
          ? "broken symlink"
          : "other";
    lines.push(
      `type: ${type}`,
      `size: ${stats.size} bytes (${formatBytes(stats.size)})`,
      `permissions: ${(stats.mode & 0o7777).toString(8).padStart(4, "0")}`,
      `modified: ${stats.mtime.toISOString()}`,
      `accessed: ${stats.atime.toISOString()}`,
      `created: ${stats.birthtime.toISOString()}`,
    );
    return lines.join("\n");
  },
});
