import { mkdir, readFile } from "node:fs/promises";
import { acquireFileLock, getLogger, LockTimeoutError, NyzhiError } from "@nyzhi/config";
import type { Embedder } from "../embedders/embedder.js";
import { hashText } from "../store/chunk-rows.js";
import type { IndexLocation } from "../store/index-location.js";
import {
  IndexDamagedError,
  type IndexManifest,
  manifestChunkCount,
  readManifest,
} from "../store/manifest.js";
import type { WalkedFile, WalkResult } from "../types.js";
import type {
  ChunkFileFunction,
  IndexProgress,
  UpdateOptions,
  UpdateResult,
  WalkProjectFunction,
} from "./index-pipeline.js";
import { IndexWriter, type PreparedFile } from "./index-writer.js";
import { walkGivenPaths } from "./walk-given-paths.js";

export interface UpdateContext {
  location: IndexLocation;
  embedder: Embedder | undefined;
  walkProject: WalkProjectFunction;
  chunkFile: ChunkFileFunction;
  exclude: readonly string[];
  maxFileBytes: number | undefined;
}

/** Another process is updating this project's index. */
export class IndexBusyError extends NyzhiError {
  constructor(root: string, lockPath: string, options?: { cause?: unknown }) {
    super(
      "index_busy",
      `Another nyz process is updating the index of ${root}. Wait for it to finish; if none is running, delete ${lockPath}.`,
      options,
    );
  }
}

/** How long an update waits for another writer before giving up, ms. */
const LOCK_WAIT_MS = 3000;
/** A write lock held by a live process is never taken over before this, ms (a first index can take long). */
const LIVE_WRITER_STALE_MS = 24 * 3600_000;

/**
 * Brings a project's index up to date: walks the project, re-reads only files whose size or
 * time changed, re-chunks and re-embeds only files whose content hash changed, drops files that
 * left. One writer at a time across processes (a lock file in the index directory).
 */
export async function updateIndex(
  context: UpdateContext,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const started = performance.now();
  const { location } = context;
  await mkdir(location.directory, { recursive: true });
  const release = await takeWriteLock(location.root, location.lockPath, options);
  try {
    return await runUpdate(context, options, started);
  } finally {
    await release();
  }
}

/**
 * The index's write lock, waited for in one-second slices up to `lockWaitMs`, so a waiting update
 * says so (`onWaiting`) and an abort (Ctrl+C) ends the wait.
 */
async function takeWriteLock(
  root: string,
  lockPath: string,
  options: UpdateOptions,
): Promise<() => Promise<void>> {
  const deadline = Date.now() + (options.lockWaitMs ?? LOCK_WAIT_MS);
  let waited = false;
  for (;;) {
    try {
      return await acquireFileLock(lockPath, {
        timeoutMs: Math.max(0, Math.min(1000, deadline - Date.now())),
        liveOwnerStaleMs: LIVE_WRITER_STALE_MS,
        maxDelayMs: 100,
      });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      if (Date.now() >= deadline || options.signal?.aborted)
        throw new IndexBusyError(root, lockPath, { cause: error });
      if (!waited) options.onWaiting?.();
      waited = true;
    }
  }
}

async function runUpdate(
  context: UpdateContext,
  options: UpdateOptions,
  started: number,
): Promise<UpdateResult> {
  const { location, signal } = { location: context.location, signal: options.signal };
  const progress: IndexProgress = {
    phase: "walking",
    filesTotal: 0,
    filesDone: 0,
    chunksDone: 0,
    embedded: 0,
  };
  options.onProgress?.({ ...progress });
  const writer = await IndexWriter.open({
    location,
    embedder: context.embedder,
    committed: await readManifestOrRebuild(location.manifestPath),
    pendingRebuild: await readManifestOrRebuild(location.nextManifestPath),
  });
  try {
    const draft = writer.draft;
    const { walk, removed, candidates } = options.paths
      ? await givenPathsWork(context, draft, options.paths, signal)
      : await wholeProjectWork(context, draft, signal);
    Object.assign(progress, { phase: "indexing", filesTotal: candidates.length });
    options.onProgress?.({ ...progress });
    await writer.remove(removed);
    const outcome = await indexFiles(writer, context, candidates, progress, options);
    const result = (aborted: boolean): UpdateResult => ({
      files: Object.keys(draft.files).length,
      chunks: manifestChunkCount(draft),
      indexed: outcome.indexed,
      embedded: progress.embedded,
      removed: removed.length + outcome.vanished,
      skipped: { ...walk.skipped, unreadable: outcome.unreadable },
      durationMs: Math.round(performance.now() - started),
      aborted,
      rebuilt: writer.rebuild,
    });
    if (outcome.aborted) {
      await writer.checkpoint({ complete: false });
      return result(true);
    }
    options.onProgress?.({ ...progress, phase: "finishing" });
    await writer.finish({ changed: removed.length > 0 || candidates.length > 0 });
    return result(false);
  } finally {
    writer.close();
  }
}

interface UpdateWork {
  walk: Pick<WalkResult, "skipped">;
  /** Indexed paths to drop. */
  removed: string[];
  /** Files to read (and re-chunk when their hash changed). */
  candidates: WalkedFile[];
}

/** A whole walk: files whose size or time changed are read, files that left are dropped. */
async function wholeProjectWork(
  context: UpdateContext,
  draft: IndexManifest,
  signal: AbortSignal | undefined,
): Promise<UpdateWork> {
  const walk = await context.walkProject(context.location.root, {
    exclude: context.exclude,
    ...(context.maxFileBytes === undefined ? {} : { maxFileBytes: context.maxFileBytes }),
    ...(signal ? { signal } : {}),
    knownText: (path, size, mtimeMs) => {
      const entry = draft.files[path];
      return entry !== undefined && entry.size === size && entry.mtimeMs === mtimeMs;
    },
  });
  const present = new Set(walk.files.map((file) => file.path));
  const removed = Object.keys(draft.files).filter((path) => !present.has(path));
  const candidates = walk.files.filter((file) => {
    const entry = draft.files[file.path];
    return !entry || entry.size !== file.size || entry.mtimeMs !== file.mtimeMs;
  });
  return { walk, removed, candidates };
}

/**
 * Only the given paths: each kept one is read again whatever its size and time say (an edit within
 * the clock's resolution keeps both), so its hash decides.
 */
async function givenPathsWork(
  context: UpdateContext,
  draft: IndexManifest,
  paths: readonly string[],
  signal: AbortSignal | undefined,
): Promise<UpdateWork> {
  const given = await walkGivenPaths(context.location.root, paths, draft, context, signal);
  return { walk: { skipped: given.skipped }, removed: given.removed, candidates: given.files };
}

interface IndexFilesOutcome {
  indexed: number;
  unreadable: number;
  /** Files listed by the walk that were gone when read. */
  vanished: number;
  aborted: boolean;
}

/**
 * Reads, chunks and writes the candidates in batches, saving progress now and then. One batch is
 * written (embedded, then LanceDB's native commit on its own threads) while the next is read and
 * chunked on this one.
 */
async function indexFiles(
  writer: IndexWriter,
  context: UpdateContext,
  candidates: WalkedFile[],
  progress: IndexProgress,
  options: UpdateOptions,
): Promise<IndexFilesOutcome> {
  const outcome: IndexFilesOutcome = { indexed: 0, unreadable: 0, vanished: 0, aborted: false };
  const batchChunks = context.embedder ? 128 : 4096;
  const batchFiles = context.embedder ? 200 : 1000;
  let batch: PreparedFile[] = [];
  let batchSize = 0;
  let inFlight: Promise<void> | undefined;
  const write = async (files: PreparedFile[]): Promise<void> => {
    progress.embedded += await writer.write(files, options.signal);
    progress.filesDone += files.length;
    progress.chunksDone += files.reduce((sum, file) => sum + file.chunks.length, 0);
    outcome.indexed += files.length;
    options.onProgress?.({ ...progress });
    await writer.checkpointIfDue();
  };
  const flush = async (): Promise<void> => {
    await inFlight;
    inFlight = undefined;
    if (batch.length === 0) return;
    const files = batch;
    batch = [];
    batchSize = 0;
    inFlight = write(files);
    // Handled when awaited; this only keeps an early failure from being reported as unhandled.
    inFlight.catch(() => undefined);
  };
  try {
    for (const file of candidates) {
      if (options.signal?.aborted) break;
      const prepared = await prepareFile(file, writer.draft, context);
      if (prepared === "vanished" || prepared === "unreadable") {
        outcome[prepared]++;
        progress.filesDone++;
        if (writer.draft.files[file.path]) {
          await inFlight;
          await writer.remove([file.path]);
        }
        continue;
      }
      if (prepared.chunks === undefined) {
        writer.touch(file.path, prepared.entry);
        progress.filesDone++;
        continue;
      }
      batch.push({ path: file.path, entry: prepared.entry, chunks: prepared.chunks });
      batchSize += prepared.chunks.length;
      if (batchSize >= batchChunks || batch.length >= batchFiles) await flush();
    }
    if (options.signal?.aborted) batch = [];
    await flush();
    await inFlight;
  } catch (error) {
    await inFlight?.catch(() => undefined);
    if (!options.signal?.aborted) {
      await writer.checkpoint({ complete: false }).catch((checkpointError: unknown) => {
        getLogger().warn({ error: checkpointError }, "index: could not save progress after an error");
      });
      throw error;
    }
  }
  outcome.aborted = options.signal?.aborted === true;
  return outcome;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The file's manifest entry, plus its chunks when its content changed. */
async function prepareFile(
  file: WalkedFile,
  draft: IndexManifest,
  context: UpdateContext,
): Promise<
  | { entry: IndexManifest["files"][string]; chunks: PreparedFile["chunks"] | undefined }
  | "vanished"
  | "unreadable"
> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file.absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "vanished" : "unreadable";
  }
  const hash = hashText(bytes);
  const previous = draft.files[file.path];
  const entry = { hash, size: file.size, mtimeMs: file.mtimeMs, chunks: previous?.chunks ?? 0 };
  if (previous && previous.hash === hash) return { entry, chunks: undefined };
  let content: string;
  try {
    content = UTF8.decode(bytes);
  } catch {
    return "unreadable";
  }
  const chunks = await context.chunkFile({ path: file.path, content });
  entry.chunks = chunks.length;
  return { entry, chunks };
}

/** A damaged manifest is logged and treated as absent, so the update rebuilds the index. */
async function readManifestOrRebuild(path: string): Promise<IndexManifest | undefined> {
  try {
    return await readManifest(path);
  } catch (error) {
    if (!(error instanceof IndexDamagedError)) throw error;
    getLogger().warn({ path, error: error.message }, "index: damaged manifest, rebuilding");
    return undefined;
  }
}
