import { cp, lstat, mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import type { ToolContext } from "../seam/tool-types.js";
import { displayPath, isNotFound } from "./file-system.js";
import { listTreeFiles, trackPaths } from "./tracked-tree.js";

const inputSchema = z.lazy(() =>
  z.object({
    source: z.string().min(1).describe("File or directory to move."),
    destination: z
      .string()
      .min(1)
      .describe("New path; must not exist yet. Missing parent directories are created."),
  }),
);

export const moveFileTool = defineShippedTool({
  name: "move_file",
  description: "Move or rename a file or directory. Fails if the destination already exists.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [
    { path: input.source, access: "write" },
    { path: input.destination, access: "write" },
  ],
  async execute(input, context) {
    const { source, destination, isDirectory } = await resolvePair(context, input.source, input.destination);
    const shownSource = displayPath(context, source);
    const shownDestination = displayPath(context, destination);
    const move = async () => {
      await mkdir(dirname(destination), { recursive: true });
      await rename(source, destination).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "EXDEV") throw error;
        await cp(source, destination, { recursive: true, preserveTimestamps: true });
        await rm(source, { recursive: true, force: true });
      });
    };
    const files = isDirectory ? await listTreeFiles(source) : [""];
    if (files === undefined) {
      await move();
      return `Moved ${shownSource} to ${shownDestination} (too many files to track; this move cannot be undone)`;
    }
    const tracked = files.flatMap((file) => [join(source, file), join(destination, file)]);
    await trackPaths(context, tracked, "move_file", move);
    return `Moved ${shownSource} to ${shownDestination}`;
  },
});

/** Resolves both paths; the source must exist and the destination must not. */
export async function resolvePair(
  context: ToolContext,
  sourceArgument: string,
  destinationArgument: string,
  sourceAccess: "read" | "write" = "write",
): Promise<{ source: string; destination: string; isDirectory: boolean }> {
  const source = await context.paths.resolve(sourceArgument, sourceAccess);
  const destination = await context.paths.resolve(destinationArgument, "write");
  const stats = await lstat(source).catch((error: unknown) => {
    if (isNotFound(error)) throw new ToolError(`Source not found: ${displayPath(context, source)}`);
    throw error;
  });
  const exists = await lstat(destination).then(
    () => true,
    (error: unknown) => {
      if (isNotFound(error)) return false;
      throw error;
    },
  );
  if (exists) throw new ToolError(`Destination already exists: ${displayPath(context, destination)}`);
  if (stats.isDirectory() && `${destination}/`.startsWith(`${source}/`)) {
    throw new ToolError("Cannot move or copy a directory into itself");
  }
  return { source, destination, isDirectory: stats.isDirectory() };
}
