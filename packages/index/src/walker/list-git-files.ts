import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
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
  // Without a `.git` (folder, or file of a linked work tree) here or above, git finds no work tree
  // either: a few stats spare the process starts on every walk outside a repository.
  const repositoryTop = findGitEntry(root);
  if (repositoryTop === undefined) return undefined;
  // Reading only: never take git's optional index lock (a concurrent `git commit` would fail).
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
  // A repository named by the environment (nyz run from a git hook) is not the one at `root`.
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"]) delete env[name];
  const run = (args: string[], runSignal: AbortSignal | undefined) =>
    execFileAsync("git", ["-C", root, ...args], {
      encoding: "utf8",
      maxBuffer: MAX_LISTING_BYTES,
      ...(runSignal ? { signal: runSignal } : {}),
      env,
    });
  // The listing starts at once, beside the check whether it is wanted (one process start less
  // to wait for); it is stopped when it is not.
  const listingAbort = new AbortController();
  const stopListing = () => listingAbort.abort();
  signal?.addEventListener("abort", stopListing, { once: true });
  const listing = run(["ls-files", "--cached", "--others", "--exclude-standard", "-z"], listingAbort.signal);
  listing.catch(() => undefined); // awaited below when wanted
  try {
    // The top of a repository cannot be ignored by it: only a project below the top is checked.
    if (repositoryTop !== root && !(await notIgnoredByRepository(run, signal))) {
      stopListing();
      return undefined;
    }
    try {
      const { stdout } = await listing;
      return [...new Set(stdout.split("\0").filter((path) => path.length > 0))];
    } catch (error) {
      signal?.throwIfAborted();
      // Unchecked (top of the repository): git missing, or refusing the repository (128, as for
      // a directory owned by someone else), means walking the file system.
      const code = (error as { code?: unknown }).code;
      if (repositoryTop === root && (code === 128 || code === "ENOENT")) return undefined;
      throw error;
    }
  } finally {
    signal?.removeEventListener("abort", stopListing);
  }
}

/** Whether `root` is in a work tree and not ignored by its repository (`git check-ignore`). */
async function notIgnoredByRepository(
  run: (args: string[], signal: AbortSignal | undefined) => Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    // Exit 1: inside a work tree and not ignored. 0: ignored by the enclosing repository. 128:
    // not a repository (or git refused it, as for a directory owned by someone else).
    await run(["check-ignore", "-q", "--no-index", "."], signal);
    return false;
  } catch (error) {
    signal?.throwIfAborted();
    return (error as { code?: unknown }).code === 1;
  }
}

/** The nearest directory, `directory` or one above it, holding a `.git` entry; git looks there. */
function findGitEntry(directory: string): string | undefined {
  for (let current = directory; ; current = dirname(current)) {
    if (existsSync(join(current, ".git"))) return current;
    if (dirname(current) === current) return undefined;
  }
}
