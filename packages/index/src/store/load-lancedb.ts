import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { NyzhiError } from "@nyzhi/config";

type LanceDb = typeof import("@lancedb/lancedb");
type Arrow = typeof import("apache-arrow");

/** The versions of the optional LanceDB pair this package is built and tested against. */
export const LANCEDB_PACKAGES = "@lancedb/lancedb@0.22.0 apache-arrow@18.1.0";

/**
 * The code index's store (LanceDB, a 160 MB native addon, and the Arrow it loads) is not
 * installed: an optional (peer) dependency left out, or a platform without a LanceDB build.
 */
export class LanceDbMissingError extends NyzhiError {
  constructor(cause: unknown) {
    super(
      "lancedb_missing",
      `The code index needs LanceDB, which is not installed (${cause instanceof Error ? cause.message.split("\n", 1)[0] : String(cause)}). For the nyz command, reinstall it with its optional dependencies: \`npm install -g nyzhi --include=optional\`. For a program using @nyzhi/index or @nyzhi/core: \`npm install ${LANCEDB_PACKAGES}\`.`,
      { cause },
    );
  }
}

let loading: Promise<{ lancedb: LanceDb; arrow: Arrow }> | undefined;

/** Whether a failed import or require means "that package is not installed". */
function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}

/**
 * LanceDB and Arrow, loaded on first use: LanceDB is a 160 MB native addon that only the index
 * needs, so no other command pays for loading it. Arrow is the very copy LanceDB loads (resolved
 * from LanceDB's own folder), so the schemas built here are the classes it checks against, and a
 * bundle that inlines this module does not inline Arrow. Both are optional: when either is not
 * installed this fails with `LanceDbMissingError`, which says how to install them.
 *
 * LanceDB sizes its CPU pool at the core count minus two (at least one thread); building a
 * full-text index of more than ~60,000 rows on such a one-thread pool deadlocks (lance's
 * posting-list writer waits for a pool thread that its own producer holds). `LANCE_CPU_THREADS`
 * is read when the pool starts, so it is set here, before any LanceDB call, unless the user set it.
 * Likewise `LANCEDB_LOG`, read when the addon loads.
 */
export function loadLanceDb(): Promise<{ lancedb: LanceDb; arrow: Arrow }> {
  if (!loading) {
    process.env.LANCE_CPU_THREADS ??= String(Math.max(4, availableParallelism()));
    // LanceDB's Rust logger writes warnings to stderr, which is the user's terminal here.
    process.env.LANCEDB_LOG ??= "error";
    loading = import("@lancedb/lancedb")
      .then((lancedb) => {
        const lancedbEntry = createRequire(import.meta.url).resolve("@lancedb/lancedb");
        const arrow = createRequire(lancedbEntry)("apache-arrow") as Arrow;
        return { lancedb, arrow };
      })
      .catch((error: unknown) => {
        // A later call may find it (installed meanwhile); a missing addon is said plainly.
        loading = undefined;
        throw isModuleMissing(error) || isNativeBuildMissing(error) ? new LanceDbMissingError(error) : error;
      });
  }
  return loading;
}

/** LanceDB's loader throws a plain Error naming the platform package when no build fits. */
function isNativeBuildMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    /lancedb-[a-z0-9]+-[a-z0-9]+/.test(error.message) &&
    /find|load/i.test(error.message)
  );
}

/**
 * Whether LanceDB and Arrow can be found (without loading the addon): hosts say so before a user
 * asks for the index.
 */
export function isLanceDbInstalled(): boolean {
  try {
    const lancedbEntry = createRequire(import.meta.url).resolve("@lancedb/lancedb");
    createRequire(lancedbEntry).resolve("apache-arrow");
    return true;
  } catch {
    return false;
  }
}
