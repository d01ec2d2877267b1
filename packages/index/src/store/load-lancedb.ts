import { createRequire } from "node:module";
import { availableParallelism } from "node:os";

type LanceDb = typeof import("@lancedb/lancedb");
type Arrow = typeof import("apache-arrow");

let loading: Promise<{ lancedb: LanceDb; arrow: Arrow }> | undefined;

/**
 * LanceDB and Arrow, loaded on first use: LanceDB is a 160 MB native addon that only the index
 * needs, so no other command pays for loading it. Arrow is the very copy LanceDB loads (resolved
 * from LanceDB's own folder), so the schemas built here are the classes it checks against, and a
 * bundle that inlines this module does not inline Arrow.
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
    loading = import("@lancedb/lancedb").then((lancedb) => {
      const lancedbEntry = createRequire(import.meta.url).resolve("@lancedb/lancedb");
      const arrow = createRequire(lancedbEntry)("apache-arrow") as Arrow;
      return { lancedb, arrow };
    });
  }
  return loading;
}
