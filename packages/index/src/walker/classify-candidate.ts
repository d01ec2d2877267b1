import { lstatSync, realpathSync, statSync } from "node:fs";
import { sep } from "node:path";
import type { WalkedFile } from "../types.js";
import { hasBinaryExtension, startsWithBinaryBytes } from "./binary-file.js";
import type { WalkCandidate } from "./walk-filesystem.js";

/** Why a candidate was left out. */
export type SkipReason = "tooLarge" | "binary" | "outsideRoot";

export interface ClassifyOptions {
  /** The root's real path (symbolic links resolved), to judge where links lead. */
  realRoot: string;
  /** Files larger than this many bytes are left out. */
  maxFileBytes: number;
  /** See WalkProjectOptions.knownText: such a file's first bytes are not read again. */
  knownText?: ((path: string, size: number, mtimeMs: number) => boolean) | undefined;
}

/**
 * Decides whether a candidate is kept, in this order: a symbolic link must lead inside the
 * project (else `outsideRoot`) to a file (a link to a directory is not followed: its files are
 * reached at their real path, which also rules out loops); a binary extension, then the size
 * cap (`tooLarge`), then a NUL byte in the first 8 KB (`binary`; not looked for in a file
 * `knownText` vouches for). `undefined` for what is no
 * file at all: a directory (a git submodule), a dangling link, a file deleted while the walk runs.
 */
export function classifyCandidate(
  candidate: WalkCandidate,
  options: ClassifyOptions,
): WalkedFile | SkipReason | undefined {
  try {
    let stats = lstatSync(candidate.absolutePath);
    if (stats.isSymbolicLink()) {
      const target = realpathSync(candidate.absolutePath);
      if (target !== options.realRoot && !target.startsWith(options.realRoot + sep)) return "outsideRoot";
      stats = statSync(candidate.absolutePath);
    }
    if (!stats.isFile()) return undefined;
    if (hasBinaryExtension(candidate.path)) return "binary";
    if (stats.size > options.maxFileBytes) return "tooLarge";
    if (
      stats.size > 0 &&
      options.knownText?.(candidate.path, stats.size, stats.mtimeMs) !== true &&
      startsWithBinaryBytes(candidate.absolutePath)
    )
      return "binary";
    return {
      path: candidate.path,
      absolutePath: candidate.absolutePath,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
    };
  } catch (error) {
    if (isVanished(error)) return undefined;
    throw error;
  }
}

/** A dangling link, a file deleted mid-walk, a path component that became a file, a loop of links. */
function isVanished(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP";
}
