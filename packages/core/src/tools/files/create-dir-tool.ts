import { mkdir, stat } from "node:fs/promises";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { displayPath, isNotFound } from "./file-system.js";

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).describe("Directory to create; missing parents are created too."),
  }),
);

export const createDirTool = defineShippedTool({
  name: "create_dir",
  description: "Create a directory (and any missing parents).",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [{ path: input.path, access: "write" }],
  async execute(input, context) {
    const path = await context.paths.resolve(input.path, "write");
    const shown = displayPath(context, path);
    const existing = await stat(path).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (existing?.isDirectory()) return `Directory ${shown} already exists.`;
    if (existing) throw new ToolError(`${shown} already exists and is not a directory`);
    await mkdir(path, { recursive: true });
    return `Created directory ${shown}`;
  },
});
