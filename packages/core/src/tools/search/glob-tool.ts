import { stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { walkFiles } from "../../engines/file-walk/walk-files.js";
import { globToRegExp } from "../../engines/glob/glob-to-regexp.js";
import { displayPath, isNotFound } from "../files/file-system.js";
import { defineShippedTool, ToolError } from "../seam/define-tool.js";

/** Most paths returned. */
export const MAX_GLOB_RESULTS = 1000;

const inputSchema = z.lazy(() =>
  z.object({
    pattern: z
      .string()
      .min(1)
      .describe(
        "Glob such as '**/*.ts' or 'src/**/*.test.{ts,tsx}'. A pattern without '/' matches file names at any depth.",
      ),
    path: z.string().min(1).optional().describe("Directory to search from. Default: the working directory."),
  }),
);

export const globTool = defineShippedTool({
  name: "glob",
  description:
    "Find files by glob pattern. Returns matching file paths (files only, sorted, at most 1000). Skips node_modules and ignored files; hidden ones only when the pattern names them.",
  inputSchema,
  kind: "read",
  mutates: false,
  paths: (input) => [{ path: input.path ?? ".", access: "read" }],
  async execute(input, context) {
    const root = await context.paths.resolve(input.path ?? ".", "read");
    const stats = await stat(root).catch((error: unknown) => {
      if (isNotFound(error)) throw new ToolError(`Directory not found: ${displayPath(context, root)}`);
      throw error;
    });
    if (!stats.isDirectory()) throw new ToolError(`${displayPath(context, root)} is not a directory`);
    const pattern = input.pattern.startsWith("../../engines/") ? input.pattern.slice(2) : input.pattern;
    const matcher = globToRegExp(pattern, { anyDepth: true });
    const includeHidden = pattern.split("/").some((segment) => segment.startsWith("."));
    const found: string[] = [];
    let truncated = false;
    for await (const file of walkFiles({ root, includeHidden, signal: context.signal })) {
      if (!matcher.test(file.relative)) continue;
      if (found.length === MAX_GLOB_RESULTS) {
        truncated = true;
        break;
      }
      found.push(displayPath(context, join(root, file.relative)));
    }
    if (found.length === 0) return "No matching files found";
    if (truncated) found.push(`(showing the first ${MAX_GLOB_RESULTS} files; narrow the pattern or path)`);
    return found.join("\n");
  },
});
