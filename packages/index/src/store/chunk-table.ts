import type { Connection, Session, Table } from "@lancedb/lancedb";
import type { Field } from "apache-arrow";
import { type ChunkRow, pathInList } from "./chunk-rows.js";
import { loadLanceDb } from "./load-lancedb.js";

/**
 * The columns with a full-text index (LanceDB names an index `<column>_idx`): `text` in every
 * table; the separately weighted fields (name, path, comments) in tables of ROW_FORMAT 2 on.
 */
export const FULL_TEXT_COLUMNS = ["text", "name_text", "path_text", "doc_text"] as const;
/** Paths per `DELETE … IN (…)` statement. */
const DELETE_BATCH = 500;

/**
 * The caches of the one LanceDB session every connection of this process shares (the reader's
 * and each update's writer): index data and table metadata read once serve later connections.
 * Without it each connection made a session of its own (LanceDB's default: 6 GB index and 1 GB
 * metadata caches), and every update's writer read the table's metadata again into a new one:
 * 22 one-file updates of a 5,000-file index took the process from 161 to 530 MB RSS at ~300 ms
 * an update; shared and bounded, 158 to 333 MB at ~100 ms (docs/performance.md, "Code index
 * memory"). Searches at 120,000 chunks hold ~190 MB either way.
 */
export const INDEX_CACHE_BYTES = 64n << 20n;
export const METADATA_CACHE_BYTES = 32n << 20n;
let session: Session | undefined;

/**
 * One build's chunk table in LanceDB: rows of ChunkRow, a BM25 full-text index on `text`, and a
 * `vector` column when the build has an embedder. Each write is a LanceDB commit (a new table
 * version); the manifest says which version is complete.
 */
export class ChunkTable {
  private constructor(
    readonly table: Table,
    /** Vector length; undefined for a full-text-only table. */
    readonly dimensions: number | undefined,
    /** Whether the table has the separately weighted fields (tables written before them have only `text`). */
    readonly weightedFields: boolean,
  ) {}

  static async connect(databasePath: string): Promise<Connection> {
    const { lancedb } = await loadLanceDb();
    session ??= new lancedb.Session(INDEX_CACHE_BYTES, METADATA_CACHE_BYTES);
    return lancedb.connect(databasePath, { session });
  }

  /** Creates the table (replacing one of the same name that a stopped run left behind). */
  static async create(
    database: Connection,
    name: string,
    options: { dimensions: number | undefined },
  ): Promise<ChunkTable> {
    const { arrow } = await loadLanceDb();
    const text = () => new arrow.Utf8();
    const fields: Field[] = [
      new arrow.Field("path", text(), false),
      new arrow.Field("start_line", new arrow.Int32(), false),
      new arrow.Field("end_line", new arrow.Int32(), false),
      new arrow.Field("symbol", text(), true),
      new arrow.Field("kind", text(), false),
      new arrow.Field("language", text(), false),
      new arrow.Field("content", text(), false),
      new arrow.Field("text", text(), false),
      new arrow.Field("name_text", text(), false),
      new arrow.Field("path_text", text(), false),
      new arrow.Field("doc_text", text(), false),
      new arrow.Field("content_hash", text(), false),
      new arrow.Field("embedder_id", text(), false),
    ];
    if (options.dimensions !== undefined) {
      const item = new arrow.Field("item", new arrow.Float32(), true);
      fields.push(new arrow.Field("vector", new arrow.FixedSizeList(options.dimensions, item), false));
    }
    const table = await database.createEmptyTable(name, new arrow.Schema(fields), { mode: "overwrite" });
    return new ChunkTable(table, options.dimensions, true);
  }

  /** Opens an existing table, at `version` when given (a read-only view of that version). */
  static async open(database: Connection, name: string, version?: number): Promise<ChunkTable> {
    const table = await database.openTable(name);
    if (version !== undefined) await table.checkout(version);
    const schema = await table.schema();
    const vector = schema.fields.find((field) => field.name === "vector");
    const dimensions = vector ? (vector.type as { listSize: number }).listSize : undefined;
    const weightedFields = schema.fields.some((field) => field.name === "name_text");
    return new ChunkTable(table, dimensions, weightedFields);
  }

  version(): Promise<number> {
    return this.table.version();
  }

  /**
   * Makes `version` the latest again, dropping what a stopped writer committed after it (those
   * versions were never in a manifest, so no reader saw them).
   */
  async restore(version: number): Promise<void> {
    if ((await this.table.version()) === version) return;
    await this.table.checkout(version);
    await this.table.restore();
  }

  async add(rows: ChunkRow[]): Promise<void> {
    if (rows.length > 0) await this.table.add(rows as unknown as Record<string, unknown>[]);
  }

  async deletePaths(paths: readonly string[]): Promise<void> {
    for (let start = 0; start < paths.length; start += DELETE_BATCH) {
      await this.table.delete(pathInList(paths.slice(start, start + DELETE_BATCH)));
    }
  }

  /** Rows of these paths: their content hash and vector, to reuse vectors of unchanged chunks. */
  async vectorsOf(paths: readonly string[]): Promise<Map<string, Float32Array | number[]>> {
    const vectors = new Map<string, Float32Array | number[]>();
    if (this.dimensions === undefined || paths.length === 0) return vectors;
    for (let start = 0; start < paths.length; start += DELETE_BATCH) {
      const rows = await this.table
        .query()
        .where(pathInList(paths.slice(start, start + DELETE_BATCH)))
        .select(["content_hash", "vector"])
        .toArray();
      for (const row of rows as Array<{ content_hash: string; vector: { toArray(): Float32Array } }>) {
        vectors.set(row.content_hash, row.vector.toArray());
      }
    }
    return vectors;
  }

  /**
   * Creates the full-text index once the table has rows, and returns how many rows it does not
   * cover yet (0 right after it is created). Rows added later are found without it too (a slower
   * flat scan) until `maintain` folds them in.
   */
  async ensureFullTextIndex(): Promise<{ unindexedRows: number }> {
    let unindexedRows = 0;
    const columns = this.weightedFields ? FULL_TEXT_COLUMNS : (["text"] as const);
    for (const column of columns) {
      const stats = await this.table.indexStats(`${column}_idx`);
      if (stats) {
        unindexedRows = Math.max(unindexedRows, stats.numUnindexedRows);
        continue;
      }
      if ((await this.table.countRows()) === 0) return { unindexedRows: 0 };
      const { lancedb } = await loadLanceDb();
      await this.table.createIndex(column, {
        config: lancedb.Index.fts({
          withPosition: false,
          stem: true,
          removeStopWords: true,
          lowercase: true,
          asciiFolding: true,
          maxTokenLength: 64,
        }),
      });
    }
    return { unindexedRows };
  }

  /** When `version` was committed. */
  async versionTime(version: number): Promise<Date | undefined> {
    const versions = await this.table.listVersions();
    return versions.find((entry) => entry.version === version)?.timestamp;
  }

  /**
   * Compacts small fragments, folds new rows into the full-text index, and deletes the versions
   * committed before `keepFrom` with the files only they used. Readers hold the version their
   * manifest names, so `keepFrom` must be the commit time of the manifest readers see now. Call
   * with the write lock held (it deletes files no commit uses, which a concurrent writer could be
   * writing).
   */
  async maintain(options: { keepFrom: Date }): Promise<void> {
    await this.table.optimize({ cleanupOlderThan: options.keepFrom, deleteUnverified: true });
  }

  countRows(): Promise<number> {
    return this.table.countRows();
  }

  close(): void {
    this.table.close();
  }
}
