import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";

const fsyncAsync = promisify(fsync);

export interface WriteFileAtomicOptions {
  /** File mode, e.g. 0o600 for secrets. Default: the existing file's mode, else 0o644. */
  mode?: number;
  /** fsync the data before the rename, so a crash never leaves a torn file. Default true. */
  fsync?: boolean;
}

/**
 * Writes `data` to `path` so that readers see either the old file or the whole new one:
 * write a temp file beside it, fsync, rename over the target. On failure the temp file is
 * removed and the original is untouched.
 *
 * The quick calls (stat, open, write, rename) are synchronous: each is microseconds of work,
 * and a round trip through libuv's thread pool per call cost more than the call itself, ten of
 * them per save. Only the fsync, which waits for the disk, runs off the main thread.
 */
export async function writeFileAtomic(
  requestedPath: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  // Write through a symlink to its target (a dotfiles-managed config stays a link), and keep an
  // existing file's permissions unless a mode is asked for (a 0600 file stays 0600).
  const path = realPathOrSelf(requestedPath);
  const mode = options.mode ?? existingMode(path) ?? 0o644;
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temp = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", mode);
  try {
    try {
      writeFileSync(fd, data);
      if (options.fsync !== false) await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The permissions of the file at `path`, or undefined when there is none to keep (or it cannot be read). */
function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
