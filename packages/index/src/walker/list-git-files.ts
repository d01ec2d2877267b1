import { execFile } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Room for the `-z` listing of a very large work tree (paths are short; 100,000 files ≈ 5 MB). */
const MAX_LISTING_BYTES = 512 * 1024 * 1024;

/**
 * The files git would consider part of the work tree at `root`: tracked files and untracked ones
 * that `.gitignore`, `.git/info/exclude` and `core.excludesFile` do not exclude (git's own,
 * exact rules), as paths relative to `root`. `undefined` when `root` is not in a git work tree,
 * git is not installed, or the enclosing repository ignores `root` itself (a project inside a
 * home directory kept in git with `*` ignored): the caller then walks the file system.
 */
export async function listGitFiles(root: string, signal?: AbortSignal): Promise<string[] | undefined> {
  // Reading only: never take git's optional index lock (a concurrent `git commit` would fail).
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
  // A repository named by the environment (nyz run from a git hook) is not the one at `root`.
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"]) delete env[name];
  const run = (args: string[]) =>
    execFileAsync("git", ["-C", root, ...args], {
      encoding: "utf8",
      maxBuffer: MAX_LISTING_BYTES,
      ...(signal ? { signal } : {}),
      env,
    });
  try {
    // Exit 1: inside a work tree and not ignored. 0: ignored by the enclosing repository. 128:
    // not a repository (or git refused it, as for a directory owned by someone else).
    await run(["check-ignore", "-q", "--no-index", "."]);
    return undefined;
  } catch (error) {
    signal?.throwIfAborted();
    if ((error as { code?: unknown }).code !== 1) return undefined;
  }
  try {
    const { stdout } = await run(["ls-files", "--cached", "--others", "--exclude-standard", "-z"]);
    return [...new Set(stdout.split("\0").filter((path) => path.length > 0))];
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  }
}
