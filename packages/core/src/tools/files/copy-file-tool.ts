import { cp, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { defineShippedTool } from "../seam/define-tool.js";
import { displayPath } from "./file-system.js";
import { resolvePair } from "./move-file-tool.js";
import { listTreeFiles, trackPaths } from "./tracked-tree.js";

const inputSchema = z.lazy(() =>
  z.object({
    source: z.string().min(1).describe("File or directory to copy."),
    destination: z
      .string()
      .min(1)
      .describe("Path of the copy; must not exist yet. Missing parent directories are created."),
  }),
);

export const copyFileTool = defineShippedTool({
  name: "copy_file",
  description: "Copy a file or directory. Fails if the destination already exists.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [
    { path: input.source, access: "read" },
    { path: input.destination, access: "write" },
  ],
  async execute(input, context) {
    const { source, destination, isDirectory } = await resolvePair(
      context,
      input.source,
      input.destination,
      "read",
    );
    const copy = async () => {
      await mkdir(dirname(destination), { recursive: true });
      await cp(source, destination, {
        recursive: true,
        errorOnExist: true,
        force: false,
        preserveTimestamps: true,
      });
    };
    const files = isDirectory ? await listTreeFiles(source) : [""];
    const shown = `${displayPath(context, source)} to ${displayPath(context, destination)}`;
    if (files === undefined) {
      await copy();
      return `Copied ${shown} (too many files to track; this copy cannot be undone)`;
    }
    await trackPaths(
      context,
      files.map((file) => join(destination, file)),
      "copy_file",
      copy,
    );
    return `Copied ${shown}`;
  },
});
