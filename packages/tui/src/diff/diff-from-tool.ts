import { computeUnifiedDiff } from "./compute-diff.js";
import { diffPart } from "./parse-unified-diff.js";

/** Tools after which the transcript shows the change they made. */
export const DIFF_TOOLS: ReadonlySet<string> = new Set(["edit", "write", "multi_edit", "apply_patch"]);

export interface ToolDiff {
  path: string;
  diff: string;
  created: boolean;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === "string" ? found : undefined;
}

/**
 * The diff a finished edit/write call made. Core's `edit` and `write` print it after a summary
 * line ("Edited a.ts\n@@ -1,2 +1,2 @@ …", with `metadata.path` and, for write, `metadata.created`);
 * when the output has none, it is computed from the old/new text of the input if present.
 * Undefined for other tools, failed calls, and calls with nothing to show.
 */
export function diffFromToolEnd(options: {
  tool: string;
  input: unknown;
  output: string;
  metadata?: Record<string, unknown> | undefined;
}): ToolDiff | undefined {
  const { tool, input, output, metadata } = options;
  if (!DIFF_TOOLS.has(tool)) return undefined;
  const path = stringField(metadata, "path") ?? stringField(input, "file_path") ?? "";
  const created = field(metadata, "created") === true;
  const printed = diffPart(output);
  if (printed !== "") return { path, diff: printed, created };
  const oldText = stringField(input, "old_string");
  const newText = stringField(input, "new_string");
  if (oldText !== undefined && newText !== undefined) {
    const diff = computeUnifiedDiff(oldText, newText);
    return diff === "" ? undefined : { path, diff, created };
  }
  const content = stringField(input, "content");
  if (tool === "write" && created && content !== undefined && content !== "") {
    return { path, diff: computeUnifiedDiff("", content), created };
  }
  return undefined;
}
