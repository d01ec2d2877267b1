import { realpath } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import type { IndexManifest } from "../store/manifest.js";
import type { WalkedFile, WalkResult } from "../types.js";
import { classifyCandidate } from "../walker/classify-candidate.js";
import { DEFAULT_MAX_FILE_BYTES } from "../walker/walk-project.js";
import type { WalkProjectFunction } from "./index-pipeline.js";

export interface GivenPathsWalk {
  /** The given files that are kept, as the walker would list them. */
  files: WalkedFile[];
  /** Given paths the index holds that are gone or no longer kept. */
  removed: string[];
  skipped: WalkResult["skipped"];
}

/**
 * Judges only `paths`: a file the index already holds is classified on its own (size cap, binary,
 * links), since it passed the ignore rules before; a new one is looked up in a whole walk, so the
 * ignore rules, `.nyzhiignore` and `index.exclude` decide about it exactly as `nyz index` would.
 */
export async function walkGivenPaths(
  root: string,
  paths: readonly string[],
  draft: IndexManifest,
  walk: { walkProject: WalkProjectFunction; exclude: readonly string[]; maxFileBytes: number | undefined },
  signal?: AbortSignal,
): Promise<GivenPathsWalk> {
  const relativePaths = [...new Set(paths.map((path) => toRelative(root, path)))].filter(
    (path): path is string => path !== undefined,
  );
  const known = relativePaths.filter((path) => draft.files[path] !== undefined);
  const unknown = relativePaths.filter((path) => draft.files[path] === undefined);
  const skipped = { ignored: 0, tooLarge: 0, binary: 0, outsideRoot: 0 };
  const files: WalkedFile[] = [];
  const removed: string[] = [];
  const realRoot = await realpath(root).catch(() => root);
  const maxFileBytes = walk.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  for (const path of known) {
    const verdict = classifyCandidate({ path, absolutePath: join(root, path) }, { realRoot, maxFileBytes });
    if (verdict === undefined) removed.push(path);
    else if (typeof verdict === "string") {
      skipped[verdict]++;
      removed.push(path);
    } else files.push(verdict);
  }
  if (unknown.length > 0) {
    const result = await walk.walkProject(root, {
      exclude: walk.exclude,
      ...(walk.maxFileBytes === undefined ? {} : { maxFileBytes: walk.maxFileBytes }),
      ...(signal ? { signal } : {}),
    });
    const wanted = new Set(unknown);
    files.push(...result.files.filter((file) => wanted.has(file.path)));
  }
  return { files, removed, skipped };
}

/** The root-relative POSIX path of `path`, or undefined when it lies outside the root. */
function toRelative(root: string, path: string): string | undefined {
  const relativePath = isAbsolute(path) ? relative(root, path) : path;
  if (relativePath === "" || relativePath.startsWith("..") || isAbsolute(relativePath)) return undefined;
  return relativePath.split(sep).join("/").replace(/^\.\//, "");
}
