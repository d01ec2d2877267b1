import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";
import { displayPath, isNotFound } from "./file-system.js";

/** Directories never shown in the tree. */
export const TREE_SKIPPED_NAMES = new Set(["node_modules", ".git", "target", "__pycache__", ".venv", "dist"]);
/** Most lines in the tree. */
const MAX_TREE_LINES = 2000;

const inputSchema = z.lazy(() =>
  z.object({
    path: z.string().min(1).optional().describe("Directory to show. Default: the working directory."),
    depth: z.number().int().min(1).max(10).optional().describe("Levels to descend. Default 3."),
  }),
);

export const directoryTreeTool = defineShippedTool({
  name: "directory_tree",
  description:
    "Show a directory as a tree, a few levels deep. Skips hidden entries, node_modules, dist and build folders.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.path ?? ".", access: "read" }],
  async execute(input, context) {
    const root = await context.paths.resolve(input.path ?? ".", "read");
    const shown = displayPath(context, root);
    const lines = [`${shown === "." ? "." : shown}/`];
    const state = { omitted: 0 };
    try {
      await walk(root, "", input.depth ?? 3, lines, state, context.signal);
    } catch (error) {
      if (isNotFound(error)) throw new ToolError(`Directory not found: ${shown}`);
      if ((error as NodeJS.ErrnoException).code === "ENOTDIR")
        throw new ToolError(`${shown} is a file, not a directory`);
      throw error;
    }
    if (state.omitted > 0) lines.push(`... (${state.omitted} more entries not shown)`);
    return lines.join("\n");
  },
});

async function walk(
  directory: string,
  prefix: string,
  depth: number,
  lines: string[],
  state: { omitted: number },
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const entries = (await readdir(directory, { withFileTypes: true }))
    .filter((entry) => !entry.name.startsWith(".") && !TREE_SKIPPED_NAMES.has(entry.name))
    .sort(byKindThenName);
  for (const [index, entry] of entries.entries()) {
    if (lines.length >= MAX_TREE_LINES) {
      state.omitted += entries.length - index;
      return;
    }
    const last = index === entries.length - 1;
    const isDirectory = entry.isDirectory();
    lines.push(`${prefix}${last ? "└── " : "├── "}${entry.name}${isDirectory ? "/" : ""}`);
    if (isDirectory && depth > 1) {
      await walk(
        join(directory, entry.name),
        `${prefix}${last ? "    " : "│   "}`,
        depth - 1,
        lines,
        state,
        signal,
      );
    }
  }
}

function byKindThenName(left: Dirent, right: Dirent): number {
  const kind = Number(right.isDirectory()) - Number(left.isDirectory());
  if (kind !== 0) return kind;
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}
