import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
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
 * removed and the original is untouched. The file replaced keeps its mode exactly (the umask
 * does not apply to it) and, when nyz runs as root (`sudo`), its owner. Why this is not the
 * `write-file-atomic` package: docs/decisions/011-own-file-lock-and-atomic-write.md.
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
  const existing = statOrUndefined(path);
  const keptMode = options.mode ?? (existing ? existing.mode & 0o777 : undefined);
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  const temp = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", keptMode ?? 0o644);
  try {
    try {
      // open() applies the umask; a mode asked for or kept is set as it is (0664 stays 0664).
      if (keptMode !== undefined) fchmodSync(fd, keptMode);
      if (existing) keepOwner(fd, existing);
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

/** The file at `path`, or undefined when there is none to keep (or it cannot be read). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Run as root (`sudo nyz …`), gives the new file the replaced file's owner, so a user's config
 * does not become root's. A file system without owners (ENOSYS) or that refuses (EPERM, EINVAL:
 * a root-squashed NFS mount) keeps the new file's owner, as npm's write-file-atomic does.
 */
function keepOwner(fd: number, existing: Stats): void {
  if (process.getuid?.() !== 0 || (existing.uid === 0 && existing.gid === 0)) return;
  try {
    fchownSync(fd, existing.uid, existing.gid);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOSYS" && code !== "EPERM" && code !== "EINVAL") throw error;
  }
}

function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
