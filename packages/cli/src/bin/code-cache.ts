import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import Module, { createRequire } from "node:module";
import { homedir, platform } from "node:os";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";

/**
 * Loads the CLI's CommonJS bundle (`dist/nyz-main.cjs`) through V8's code cache.
 *
 * Node 20 has no compile cache for ES modules, and compiling the bundle's ~4 MB of JavaScript
 * (our packages, zod, the SDKs) was the largest single part of `nyz exec`'s start-up. A
 * `vm.Script` can take V8's cached data instead: the first run writes it (after the command, so it
 * also holds the functions that run compiled), later runs skip parsing and compiling them, about
 * 70 ms per run here (docs/performance.md). The cache lives in nyzhi's cache directory, one file per
 * bundle build and Node version; V8 rejects data made by another V8 or with other flags, and such a
 * file is simply rewritten. `NYZHI_NO_CODE_CACHE=1` turns it off.
 *
 * This module runs before anything else is loaded, so it uses Node built-ins only; the cache
 * directory mirrors `resolveDirs().cache` from `@nyzhi/config` (a test checks they agree).
 */
export interface LoadedBundle<Exports> {
  exports: Exports;
  /** What happened to the code cache on load: turned off, none yet, used, or refused by V8. */
  cache: "off" | "missing" | "accepted" | "rejected";
  /** Writes the code cache if this run had none (or V8 rejected it). Never throws. */
  saveCodeCache(): void;
}

type Environment = Readonly<Record<string, string | undefined>>;

const CACHE_PREFIX = "nyz-main-";

export function loadBundleWithCodeCache<Exports>(
  bundlePath: string,
  options: {
    version: string;
    env?: Environment;
    /**
     * Which kind of run this is (e.g. `headless` for run/exec): each kind keeps its own cache, as
     * a cache holds the functions its first run compiled and `nyz --help` compiles few of exec's.
     */
    variant?: string;
  },
): LoadedBundle<Exports> {
  const env = options.env ?? process.env;
  const { source, spent } = readWrappedSource(bundlePath);
  const cachePath = env.NYZHI_NO_CODE_CACHE
    ? undefined
    : codeCachePath(bundlePath, options.version, env, options.variant);
  let cachedData: Buffer | undefined;
  if (cachePath) {
    try {
      cachedData = readWholeFile(cachePath, spent);
    } catch {
      // no cache yet
    }
  }
  // The bundle is built without `import()` (a vm.Script has no loader for it): it uses `require`.
  const script = new vm.Script(source, {
    filename: bundlePath,
    ...(cachedData ? { cachedData } : {}),
  });
  // Only whether there was a cache is kept: `cachedData` is a view of the 2.6 MB read buffer.
  const hadCache = cachedData !== undefined;
  cachedData = undefined;
  const module = { exports: {} as Exports };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(
    module.exports,
    module.exports,
    createRequire(bundlePath),
    module,
    bundlePath,
    dirname(bundlePath),
  );
  return {
    exports: module.exports,
    cache: !cachePath ? "off" : !hadCache ? "missing" : script.cachedDataRejected ? "rejected" : "accepted",
    saveCodeCache: () => {
      if (!cachePath || (hadCache && !script.cachedDataRejected)) return;
      try {
        writeCache(
          cachePath,
          script.createCachedData(),
          cachePrefix(options.version, bundlePath),
          bundleId(bundlePath),
        );
      } catch {
        // A read-only or full disk only costs the next run its head start.
      }
    },
  };
}

/**
 * The bundle's text inside Node's CommonJS wrapper (`Module.wrap`), as one flat string on V8's heap.
 *
 * `Module.wrap(source)` concatenates: V8 then flattens that 2.6 MB string into a fresh copy when it
 * looks the script up in its compilation cache. Reading the file between the wrapper's two halves
 * in one buffer makes a single copy instead. It is decoded as UTF-8, which gives a string on V8's
 * heap; latin1 would give an external string that V8 counts as outside memory, and that made it
 * start a full garbage collection during a 20-step session (+10-20 ms of CPU on its threads).
 *
 * `spent` is that buffer, whose content the string has copied: reading the code cache into it uses
 * memory already paged in (a fresh 2 MB costs ~500 page faults, ~0.7 ms here).
 */
export function readWrappedSource(bundlePath: string): { source: string; spent: Buffer } {
  const [head, tail] = Module.wrap("\0").split("\0") as [string, string];
  const fd = openSync(bundlePath, "r");
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.allocUnsafeSlow(head.length + size + tail.length);
    buffer.write(head, 0, "utf8");
    const end = head.length + readFully(fd, buffer.subarray(head.length, head.length + size));
    buffer.write(tail, end, "utf8");
    return { source: buffer.toString("utf8", 0, end + tail.length), spent: buffer };
  } finally {
    closeSync(fd);
  }
}

/** The whole file, in `into` when it fits there. */
export function readWholeFile(path: string, into?: Buffer): Buffer {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const target = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafe(size);
    return target.subarray(0, readFully(fd, target));
  } finally {
    closeSync(fd);
  }
}

/** Reads from `fd`'s start until `target` is full or the file ends; returns the bytes read. */
function readFully(fd: number, target: Buffer): number {
  let filled = 0;
  while (filled < target.length) {
    const read = readSync(fd, target, filled, target.length - filled, filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

/** `<cache dir>/v8/nyz-main-<version>-<node>-<arch>-<bundle name>-<bundle id>[-<variant>].bin`. */
export function codeCachePath(
  bundlePath: string,
  version: string,
  env: Environment,
  variant?: string,
): string {
  const suffix = variant ? `-${variant}` : "";
  return join(
    cacheDirectory(env),
    "v8",
    `${cachePrefix(version, bundlePath)}${bundleId(bundlePath)}${suffix}.bin`,
  );
}

/**
 * One install's caches of one bundle (`nyz-main`, `index-process`): writing a cache removes those of
 * the same bundle's other builds, never the other bundle's.
 */
function cachePrefix(version: string, bundlePath: string): string {
  return `${CACHE_PREFIX}${version}-${process.version}-${process.arch}-${basename(bundlePath, ".cjs")}-`;
}

/**
 * Identifies one build of the bundle: the content hash the build writes beside it, else its size
 * and modification time. V8 itself only checks the source's length, so a rebuilt bundle must never
 * meet the cache of another build.
 */
function bundleId(bundlePath: string): string {
  const info = statSync(bundlePath);
  // Size and mtime too: a bundle edited after the build (a patch) keeps the build's hash file.
  const stamp = `${info.size}-${Math.round(info.mtimeMs)}`;
  try {
    return `${readFileSync(`${bundlePath}.sha256`, "utf8").trim().slice(0, 16)}-${stamp}`;
  } catch {
    return stamp;
  }
}

/** nyzhi's cache directory, as `resolveDirs(env).cache` in `@nyzhi/config` computes it. */
export function cacheDirectory(env: Environment): string {
  if (env.NYZHI_CACHE_DIR) return env.NYZHI_CACHE_DIR;
  if (env.NYZHI_HOME) return join(env.NYZHI_HOME, "cache");
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const os = platform();
  if (os === "darwin") return join(home, "Library", "Caches", "nyzhi");
  if (os === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "nyzhi", "cache");
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "nyzhi");
}

/** A cache nobody has rewritten for this long belongs to an install that is gone. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Atomic (temp file + rename; the directory private to the user, as the cache is code). Removes
 * the caches of other builds of the same version and Node, and any cache untouched for 30 days;
 * another install (a different version) keeps its own, and so do the other variants of this build.
 */
function writeCache(path: string, data: Buffer, sameInstallPrefix: string, build: string): void {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, path);
  const name = path.slice(directory.length + 1);
  const now = Date.now();
  for (const entry of readdirSync(directory)) {
    if (!entry.startsWith(CACHE_PREFIX) || entry === name || entry.endsWith(".tmp")) continue;
    const file = join(directory, entry);
    const otherBuild =
      entry.startsWith(sameInstallPrefix) && !entry.startsWith(`${sameInstallPrefix}${build}`);
    if (otherBuild || now - statSync(file).mtimeMs > STALE_MS) {
      rmSync(file, { force: true });
    }
  }
}
