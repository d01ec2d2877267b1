import { randomBytes } from "node:crypto";
import { mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

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
 */
export async function writeFileAtomic(
  requestedPath: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  // Write through a symlink to its target (a dotfiles-managed config stays a link), and keep an
  // existing file's permissions unless a mode is asked for (a 0600 file stays 0600).
  const path = await realpath(requestedPath).catch(() => requestedPath);
  const existingMode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
  const mode = options.mode ?? existingMode ?? 0o644;
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temp = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", mode);
  try {
    try {
      await handle.writeFile(data);
      if (options.fsync !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
