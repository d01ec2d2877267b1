import { createRequire } from "node:module";

type StructuredPatch = (
  oldFileName: string,
  newFileName: string,
  oldText: string,
  newText: string,
  oldHeader?: string,
  newHeader?: string,
  options?: { context?: number },
) => { hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] };

let structuredPatch: StructuredPatch | undefined;

/**
 * Loads jsdiff on first use: most sessions never need it, and it costs ~40 ms to load. The literal
 * `require("diff")` is for the app's bundle (nyz's `dist/app.cjs`), which carries jsdiff and runs it
 * only here; unbundled ES modules have no `require` and use Node's.
 */
function loadStructuredPatch(): StructuredPatch {
  if (!structuredPatch) {
    const module = (
      typeof require === "function" ? require("diff") : createRequire(import.meta.url)("diff")
    ) as { structuredPatch: StructuredPatch };
    structuredPatch = module.structuredPatch;
  }
  return structuredPatch;
}

/**
 * The unified diff of two texts as hunks (`@@ -a,b +c,d @@` then ` `/`-`/`+` lines, 3 lines of
 * context, no file headers): the same shape core's edit and write tools print. "" when equal.
 */
export function computeUnifiedDiff(before: string, after: string): string {
  if (before === after) return "";
  const patch = loadStructuredPatch()("a", "b", before, after, undefined, undefined, { context: 3 });
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(`@@ -${Math.max(0, oldStart)},${hunk.oldLines} +${Math.max(0, newStart)},${hunk.newLines} @@`);
    for (const line of hunk.lines) if (!line.startsWith("\\")) lines.push(line);
  }
  return lines.join("\n");
}
