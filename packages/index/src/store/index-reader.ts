import { stat } from "node:fs/promises";
import type { Connection } from "@lancedb/lancedb";
import { ChunkTable } from "./chunk-table.js";
import type { IndexLocation } from "./index-location.js";
import { type IndexManifest, readManifest } from "./manifest.js";

/** What a search reads: the committed manifest and its table at the version it names. */
export interface IndexSnapshot {
  manifest: IndexManifest;
  /** Undefined while the index has no rows. */
  table: ChunkTable | undefined;
}

/**
 * Opens the committed index for reading and follows new commits: each call re-checks the
 * manifest (a `stat`), and when a writer has saved a new one, checks out the version it names.
 * Rows a writer added after that version stay invisible, so a search never sees a half-written
 * update.
 */
export class IndexReader {
  private database: Connection | undefined;
  private cached: { stamp: string; snapshot: IndexSnapshot } | undefined;

  constructor(private readonly location: IndexLocation) {}

  /** The current snapshot; undefined when the project has no index yet. */
  async snapshot(): Promise<IndexSnapshot | undefined> {
    const stamp = await manifestStamp(this.location.manifestPath);
    if (stamp === undefined) {
      this.invalidate();
      return undefined;
    }
    if (this.cached?.stamp === stamp) return this.cached.snapshot;
    const manifest = await readManifest(this.location.manifestPath);
    if (!manifest) return undefined;
    let table: ChunkTable | undefined;
    if (manifest.tableVersion > 0) {
      this.database ??= await ChunkTable.connect(this.location.databasePath);
      table = await ChunkTable.open(this.database, manifest.table, manifest.tableVersion);
    }
    this.cached?.snapshot.table?.close();
    this.cached = { stamp, snapshot: { manifest, table } };
    return this.cached.snapshot;
  }

  /** Forgets the open snapshot (after a failed read: a writer may have just replaced it). */
  invalidate(): void {
    this.cached?.snapshot.table?.close();
    this.cached = undefined;
  }

  close(): void {
    this.invalidate();
    this.database?.close();
    this.database = undefined;
  }
}

async function manifestStamp(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return `${info.mtimeMs}:${info.size}:${info.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
