import { rename } from "node:fs/promises";
import type { Connection } from "@lancedb/lancedb";
import { getLogger } from "@nyzhi/config";
import { type Embedder, EmbedderError, embedderMatches } from "../embedders/embedder.js";
import { type ChunkRow, embeddingText, hashText, toChunkRow } from "../store/chunk-rows.js";
import { ChunkTable } from "../store/chunk-table.js";
import type { IndexLocation } from "../store/index-location.js";
import {
  emptyManifest,
  type IndexManifest,
  type ManifestFile,
  rowsAreCurrent,
  writeManifest,
} from "../store/manifest.js";
import type { CodeChunk } from "../types.js";

/** A file read, hashed and chunked, waiting to be written. */
export interface PreparedFile {
  path: string;
  entry: ManifestFile;
  chunks: CodeChunk[];
}

/** Save progress at most this often during a long update, ms. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** Fold new rows into the full-text index once this many wait. */
const MAX_UNINDEXED_ROWS = 2000;
/** Compact and delete old versions after this many updates without doing so. */
const MAINTENANCE_EVERY_UPDATES = 20;

/**
 * Writes one update of a project's index, holding the write lock. The rows go to the table the
 * draft manifest names; every `checkpoint` saves the draft, naming the table version that holds
 * exactly the files it lists. A normal update's draft is the committed manifest itself, so a
 * checkpoint publishes the files done so far (each file is either all old or all new). A rebuild
 * (another embedder) writes a new table under `manifest.next.json` and replaces the committed
 * manifest only when it is complete, so the old index serves searches until then, and a stopped
 * rebuild resumes where it was.
 */
export class IndexWriter {
  private table: ChunkTable | undefined;
  private lastCheckpoint = Date.now();
  private writes = 0;

  /** Opened on the first write: an update that changes nothing never loads LanceDB. */
  private database: Connection | undefined;

  private constructor(
    private readonly location: IndexLocation,
    private readonly embedder: Embedder | undefined,
    /** The manifest readers see when the update starts. */
    private readonly committed: IndexManifest | undefined,
    readonly draft: IndexManifest,
    readonly rebuild: boolean,
  ) {}

  static async open(options: {
    location: IndexLocation;
    embedder: Embedder | undefined;
    committed: IndexManifest | undefined;
    pendingRebuild: IndexManifest | undefined;
  }): Promise<IndexWriter> {
    const { location, embedder, committed, pendingRebuild } = options;
    const embedderIdNow = embedder?.id ?? null;
    let draft: IndexManifest;
    let rebuild = false;
    if (
      committed &&
      rowsAreCurrent(committed) &&
      embedderMatches(committed.embedderId ?? undefined, embedder)
    ) {
      // Entries are replaced, never changed in place, so copying the map is enough.
      draft = { ...committed, files: { ...committed.files } };
    } else if (committed) {
      rebuild = true;
      draft =
        pendingRebuild &&
        pendingRebuild.table !== committed.table &&
        rowsAreCurrent(pendingRebuild) &&
        embedderMatches(pendingRebuild.embedderId ?? undefined, embedder)
          ? pendingRebuild
          : emptyManifest(location.root, nextTableName(committed.table), embedderIdNow);
    } else {
      draft = emptyManifest(location.root, "chunks_1", embedderIdNow);
    }
    return new IndexWriter(location, embedder, committed, draft, rebuild);
  }

  /** The draft's table, opened and rolled back to the draft's version on first use. */
  private async openTable(dimensions: number | undefined): Promise<ChunkTable | undefined> {
    if (this.table) return this.table;
    this.database ??= await ChunkTable.connect(this.location.databasePath);
    if (this.draft.tableVersion > 0) {
      this.table = await ChunkTable.open(this.database, this.draft.table);
      await this.table.restore(this.draft.tableVersion);
    } else if (dimensions !== undefined || !this.embedder) {
      // Nothing committed in this table yet: whatever a stopped run left in it is replaced.
      this.table = await ChunkTable.create(this.database, this.draft.table, { dimensions });
    }
    return this.table;
  }

  /** Drops the rows of files that left the project. */
  async remove(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    const table = await this.openTable(this.draft.dimensions ?? undefined);
    await table?.deletePaths(paths);
    for (const path of paths) delete this.draft.files[path];
    this.writes++;
  }

  /** Records a file whose content is unchanged (only its size or time moved). */
  touch(path: string, entry: ManifestFile): void {
    this.draft.files[path] = entry;
  }

  /** Writes the chunks of `files` in place of their old rows. Returns the chunks embedded. */
  async write(files: PreparedFile[], signal?: AbortSignal): Promise<number> {
    const chunks = files.flatMap((file) => file.chunks);
    const previouslyIndexed = files.map((file) => file.path).filter((path) => this.draft.files[path]);
    let embedded = 0;
    let vectors: Array<Float32Array | number[]> | undefined;
    if (this.embedder && chunks.length > 0) {
      const known =
        this.draft.tableVersion > 0
          ? await (await this.openTable(undefined))?.vectorsOf(previouslyIndexed)
          : undefined;
      const result = await embedChunks(this.embedder, chunks, known ?? new Map(), signal);
      vectors = result.vectors;
      embedded = result.embedded;
    }
    const dimensions = vectors?.[0]?.length ?? this.draft.dimensions ?? undefined;
    const table =
      chunks.length > 0 || previouslyIndexed.length > 0 ? await this.openTable(dimensions) : undefined;
    if (table && vectors?.[0] && table.dimensions !== vectors[0].length) {
      throw new EmbedderError(
        `${this.embedder?.id} returned vectors of ${vectors[0].length} numbers, but this index holds ${table.dimensions}. Run \`nyz index clear\`.`,
      );
    }
    if (table) {
      await table.deletePaths(previouslyIndexed);
      const embedderId = this.embedder?.id ?? "";
      const rows: ChunkRow[] = chunks.map((chunk, position) =>
        toChunkRow(chunk, { embedderId, vector: vectors?.[position] }),
      );
      await table.add(rows);
      this.writes++;
    }
    for (const file of files) this.draft.files[file.path] = file.entry;
    if (this.embedder) {
      this.draft.embedderId = this.embedder.id;
      this.draft.dimensions = this.embedder.dimensions ?? dimensions ?? null;
    }
    return embedded;
  }

  /** Saves the draft when the last save is older than the checkpoint interval. */
  async checkpointIfDue(): Promise<void> {
    if (Date.now() - this.lastCheckpoint >= CHECKPOINT_INTERVAL_MS)
      await this.checkpoint({ complete: false });
  }

  /** Saves the draft manifest, naming the table version that holds what it lists. */
  async checkpoint(options: { complete: boolean }): Promise<void> {
    if (this.table) {
      // Every saved version answers full-text queries: the index is made with the first rows (a
      // table without one cannot answer a full-text query at all); later rows are scanned.
      if (!options.complete) await this.table.ensureFullTextIndex();
      this.draft.tableVersion = await this.table.version();
    }
    this.draft.complete = options.complete;
    this.draft.updatedAt = new Date().toISOString();
    await writeManifest(
      this.rebuild ? this.location.nextManifestPath : this.location.manifestPath,
      this.draft,
    );
    this.lastCheckpoint = Date.now();
  }

  /**
   * Completes the update: the full-text index brought up to date, old versions deleted now and
   * then, the draft saved as complete, and a finished rebuild put in place of the old index.
   * Returns whether anything was saved.
   */
  async finish(options: { changed: boolean }): Promise<boolean> {
    if (!options.changed && !this.rebuild && this.committed?.complete) return false;
    const table = this.table;
    if (table) {
      const { unindexedRows } = await table.ensureFullTextIndex();
      const maintenanceDue =
        unindexedRows > MAX_UNINDEXED_ROWS ||
        (this.draft.updatesSinceMaintenance ?? 0) + 1 >= MAINTENANCE_EVERY_UPDATES;
      if (maintenanceDue) {
        // Readers hold the committed manifest's version: keep it (and everything after it).
        const readersVersion =
          !this.rebuild && this.committed && this.committed.tableVersion > 0
            ? await table.versionTime(this.committed.tableVersion)
            : undefined;
        await table.maintain({ keepFrom: readersVersion ?? new Date(Date.now() - 1000) });
        this.draft.updatesSinceMaintenance = 0;
      } else if (this.writes > 0) {
        this.draft.updatesSinceMaintenance = (this.draft.updatesSinceMaintenance ?? 0) + 1;
      }
    }
    await this.checkpoint({ complete: true });
    if (this.rebuild) {
      await rename(this.location.nextManifestPath, this.location.manifestPath);
      if (this.committed && this.committed.table !== this.draft.table) {
        this.database ??= await ChunkTable.connect(this.location.databasePath);
        const oldTable = this.committed.table;
        await this.database.dropTable(oldTable).catch((error: unknown) => {
          getLogger().warn({ error, table: oldTable }, "index: could not drop the replaced table");
        });
      }
    }
    return true;
  }

  close(): void {
    this.table?.close();
    this.database?.close();
  }
}

function nextTableName(previous: string): string {
  const number = Number(/_(\d+)$/.exec(previous)?.[1] ?? "0");
  return `chunks_${number + 1}`;
}

/** Vectors for `chunks`, reusing `known` ones (by content hash) and embedding the rest. */
async function embedChunks(
  embedder: Embedder,
  chunks: CodeChunk[],
  known: Map<string, Float32Array | number[]>,
  signal: AbortSignal | undefined,
): Promise<{ vectors: Array<Float32Array | number[]>; embedded: number }> {
  const vectors: Array<Float32Array | number[] | undefined> = chunks.map((chunk) =>
    known.get(hashText(chunk.content)),
  );
  const missing = chunks.flatMap((_chunk, position) => (vectors[position] ? [] : [position]));
  if (missing.length > 0) {
    const fresh = await embedder.embed(
      missing.map((position) => embeddingText(chunks[position] as CodeChunk)),
      signal,
    );
    if (fresh.length !== missing.length) {
      throw new EmbedderError(`${embedder.id} returned ${fresh.length} vectors for ${missing.length} texts.`);
    }
    missing.forEach((position, order) => {
      vectors[position] = fresh[order];
    });
  }
  return { vectors: vectors as Array<Float32Array | number[]>, embedded: missing.length };
}
