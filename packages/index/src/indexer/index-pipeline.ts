import type { CodeChunk, WalkResult } from "../types.js";

/** Lists a project's files (the walker's entry; a host or test may pass its own). */
export type WalkProjectFunction = (
  root: string,
  options?: {
    exclude?: readonly string[];
    maxFileBytes?: number;
    signal?: AbortSignal;
    /** Files the index holds at this size and time: known text (see WalkProjectOptions). */
    knownText?: (path: string, size: number, mtimeMs: number) => boolean;
  },
) => Promise<WalkResult>;

/** Cuts one file into chunks (the chunker's entry; a host or test may pass its own). */
export type ChunkFileFunction = (file: { path: string; content: string }) => Promise<CodeChunk[]>;

/** Where an update stands, reported after each batch of files. */
export interface IndexProgress {
  phase: "walking" | "indexing" | "finishing";
  /** Files this update has to read (new or changed since the last one). */
  filesTotal: number;
  filesDone: number;
  /** Chunks written so far by this update. */
  chunksDone: number;
  /** Chunks embedded so far (a chunk whose content is unchanged keeps its vector). */
  embedded: number;
}

export interface UpdateOptions {
  onProgress?: (progress: IndexProgress) => void;
  /** Stops between batches; what was done so far is kept and the next update goes on from there. */
  signal?: AbortSignal;
  /**
   * Only these files (relative to the root, or absolute inside it): each is read again and
   * re-chunked if its content changed, or removed when it is gone or no longer kept. Files the
   * index already holds are judged without walking the project; a new one takes a walk, so the
   * ignore rules decide whether it belongs. For a host that knows what changed (its own edits, a
   * file watcher). Other files are left as they are.
   */
  paths?: readonly string[];
  /**
   * How long to wait for another process's update to finish before failing with `index_busy`,
   * ms (default 3,000). `nyz index` waits much longer: a session may be re-indexing a large change.
   */
  lockWaitMs?: number;
  /** Called once when the update has to wait for another writer (to say so). */
  onWaiting?: () => void;
}

export interface UpdateResult {
  /** Files and chunks in the index after the update. */
  files: number;
  chunks: number;
  /** Files this update (re)indexed. */
  indexed: number;
  /** Chunks embedded by this update. */
  embedded: number;
  /** Files gone from the project, removed from the index. */
  removed: number;
  /** Files the walker left out, by reason, plus files that could not be read as UTF-8 text. */
  skipped: WalkResult["skipped"] & { unreadable: number };
  durationMs: number;
  /** The signal stopped the update before the end. */
  aborted: boolean;
  /** The embedder differs from the one that built the index, so this update started a new one. */
  rebuilt: boolean;
}
