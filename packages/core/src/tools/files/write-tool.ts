import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { defineShippedTool } from "../seam/define-tool.js";
import { displayPath, isNotFound, looksBinary, writeKeepingMode } from "./file-system.js";
import { unifiedDiff } from "./unified-diff.js";

const inputSchema = z.lazy(() =>
  z.object({
    file_path: z.string().min(1).describe("Path of the file, absolute or relative to the working directory."),
    content: z.string().describe("The complete new content of the file."),
  }),
);

export const writeTool = defineShippedTool({
  name: "write",
  description:
    "Create or overwrite a file with the given content (parent directories are created). Prefer edit for changing part of an existing file.",
  inputSchema,
  kind: "edit",
  mutates: true,
  paths: (input) => [{ path: input.file_path, access: "write" }],
  preview: (input) => `${input.file_path}\n${unifiedDiff("", input.content, { maxLines: 30 })}`,
  async execute(input, context) {
    const path = await context.paths.resolve(input.file_path, "write");
    const before = await readExisting(path);
    await mkdir(dirname(path), { recursive: true });
    await context.changes.beforeChange(path, "write");
    try {
      await writeKeepingMode(path, input.content);
    } finally {
      await context.changes.afterChange(path, "write");
    }
    const bytes = Buffer.byteLength(input.content, "utf8");
    const shown = displayPath(context, path);
    const summary =
      before === undefined
        ? `Wrote ${bytes} bytes to ${shown} (new file)`
        : before === null
          ? `Wrote ${bytes} bytes to ${shown} (replaced a binary file)`
          : `Wrote ${bytes} bytes to ${shown}`;
    const diff = before === null ? "" : unifiedDiff(before ?? "", input.content, { maxLines: 50 });
    return {
      output: diff === "" ? summary : `${summary}\n${diff}`,
      metadata: { path, bytes, created: before === undefined },
    };
  },
});

/** The current text, undefined when the file does not exist, null when it is binary. */
async function readExisting(path: string): Promise<string | undefined | null> {
  try {
    const bytes = await readFile(path);
    return looksBinary(bytes) ? null : bytes.toString("utf8");
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
