import { isAbsolute, resolve } from "node:path";
import { parsePatch, patchPaths } from "../engines/apply-patch/parse-patch.js";

/**
 * The paths a tool call names, absolute: `file_path`, `path`, `source`/`destination`,
 * `edits[].file_path`, and the files of an `apply_patch` patch. Used for `pattern` filters and
 * `{file}`; a tool whose input names none gives [].
 */
export function filesNamedBy(toolName: string, input: unknown, cwd: string): string[] {
  if (typeof input !== "object" || input === null) return [];
  const record = input as Record<string, unknown>;
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value !== "") found.push(value);
  };
  add(record.file_path);
  add(record.path);
  add(record.source);
  add(record.destination);
  if (Array.isArray(record.edits)) {
    for (const edit of record.edits) {
      if (typeof edit === "object" && edit !== null) add((edit as Record<string, unknown>).file_path);
    }
  }
  if (toolName === "apply_patch" && typeof record.patch === "string") {
    try {
      for (const path of patchPaths(parsePatch(record.patch))) add(path);
    } catch {
      // An unparsable patch names no files; the tool itself reports the error.
    }
  }
  const absolute = found.map((path) => (isAbsolute(path) ? path : resolve(cwd, path)));
  return [...new Set(absolute)];
}
