import { NyzhiError, readFileIfExists, writeFileAtomic } from "@nyzhi/config";

/** What the index holds of one file. */
export interface ManifestFile {
  /** sha256 hex of the file's content when it was indexed. */
  hash: string;
  /** Bytes and modification time (epoch ms) then: equal values skip reading the file again. */
  size: number;
  mtimeMs: number;
  chunks: number;
}

/**
 * The record of one build of a project's index: which LanceDB table and version hold it, which
 * embedder made its vectors, and the content hash of every file in it. Readers open exactly
 * `table` at `tableVersion`, so rows a writer adds after it are invisible to them until the writer
 * saves a new manifest (see docs/decisions/ for the design).
 */
/**
 * What the rows of a table hold: 2 added the separately weighted full-text fields (name, path,
 * comments), 3 the thesaurus words of a chunk's identifiers in `text`. An index whose manifest says less (or nothing: 1) is rebuilt by the next update and
 * searched the old way until then.
 */
export const ROW_FORMAT = 3;

export interface IndexManifest {
  format: 1;
  /** ROW_FORMAT of the table's rows; absent in manifests written before it (format 1 rows). */
  rowFormat?: number;
  /** The project root, absolute. */
  root: string;
  /** LanceDB table name, `chunks_<n>`; a rebuild writes a new table. */
  table: string;
  /** The table version this manifest describes; 0 before the table has any row. */
  tableVersion: number;
  /** The embedder's id (`openai:text-embedding-3-small:1536`); null for a full-text-only index. */
  embedderId: string | null;
  /** Vector length; null without an embedder. */
  dimensions: number | null;
  /** Keyed by the path relative to the root, POSIX separators. */
  files: Record<string, ManifestFile>;
  /** False while a build has not reached every file yet (it was stopped and resumes next time). */
  complete: boolean;
  /** Updates that wrote rows since old versions were last deleted (see IndexWriter.finish). */
  updatesSinceMaintenance?: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** An index file that cannot be read; `nyz index clear` removes it. */
export class IndexDamagedError extends NyzhiError {
  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(
      "index_damaged",
      `The code index at ${path} cannot be read (${reason}). Run \`nyz index clear\` and \`nyz index\` to rebuild it.`,
      options,
    );
  }
}

export function emptyManifest(root: string, table: string, embedderId: string | null): IndexManifest {
  const now = new Date().toISOString();
  return {
    format: 1,
    rowFormat: ROW_FORMAT,
    root,
    table,
    tableVersion: 0,
    embedderId,
    dimensions: null,
    files: {},
    complete: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** The manifest at `path`, undefined when there is none; throws IndexDamagedError when it is unreadable. */
export async function readManifest(path: string): Promise<IndexManifest | undefined> {
  const text = await readFileIfExists(path);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new IndexDamagedError(path, "not valid JSON", { cause: error });
  }
  if (!isManifest(parsed)) throw new IndexDamagedError(path, "not an index manifest of this nyzhi version");
  return parsed;
}

/** Saves the manifest atomically: readers see the old one or the new one, never a torn file. */
export async function writeManifest(path: string, manifest: IndexManifest): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(manifest)}\n`);
}

/** Whether an update can add to this build, or must rebuild it because its rows are of an older format. */
export function rowsAreCurrent(manifest: IndexManifest): boolean {
  return (manifest.rowFormat ?? 1) === ROW_FORMAT;
}

/** Chunks in the index, from the manifest (no table read). */
export function manifestChunkCount(manifest: IndexManifest): number {
  let chunks = 0;
  for (const file of Object.values(manifest.files)) chunks += file.chunks;
  return chunks;
}

function isManifest(value: unknown): value is IndexManifest {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<IndexManifest>;
  return (
    candidate.format === 1 &&
    typeof candidate.root === "string" &&
    typeof candidate.table === "string" &&
    typeof candidate.tableVersion === "number" &&
    typeof candidate.files === "object" &&
    candidate.files !== null
  );
}
