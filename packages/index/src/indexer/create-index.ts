import { rm } from "node:fs/promises";
import { type Environment, type NyzhiConfig, NyzhiError, withFileLock } from "@nyzhi/config";
import { chunkFile } from "../chunker/chunk-file.js";
import { chooseEmbedder, type EmbedderChoice, type GetEmbeddingKey } from "../embedders/choose-embedder.js";
import { type Embedder, embedderMatches } from "../embedders/embedder.js";
import { type SearchOptions, type SearchResult, searchChunks } from "../search/search-chunks.js";
import { indexLocation } from "../store/index-location.js";
import { IndexReader } from "../store/index-reader.js";
import { manifestChunkCount, readManifest, rowsAreCurrent } from "../store/manifest.js";
import { walkProject } from "../walker/walk-project.js";
import { indexExclusions, nyzhiOutputExclusions } from "./index-exclusions.js";
import type {
  ChunkFileFunction,
  UpdateOptions,
  UpdateResult,
  WalkProjectFunction,
} from "./index-pipeline.js";
import { updateIndex } from "./update-index.js";

export interface CreateIndexOptions {
  /** The project root. */
  root: string;
  /** Locates the data dir (NYZHI_HOME, XDG) and the embeddings keys' variables. */
  env: Environment;
  /** The merged config; its `index` section decides the embedder, exclusions and size cap. */
  config: NyzhiConfig;
  /** An embedder to use instead of the one `index.embedding` picks; null for full-text only. */
  embedder?: Embedder | null;
  /** The host's key lookup for remote embedders (see GetEmbeddingKey). */
  getKey?: GetEmbeddingKey;
  /** Replace the walker or the chunker (tests, hosts with their own file list). */
  walkProject?: WalkProjectFunction;
  chunkFile?: ChunkFileFunction;
}

/** What `nyz index status` shows. */
export interface IndexStatus {
  root: string;
  /** Where the index lives. */
  directory: string;
  /** False before the first update. */
  built: boolean;
  files: number;
  chunks: number;
  /** The embedder the index was built with (`openai:text-embedding-3-small:1536`), or `none`. */
  builtWith: string | undefined;
  /** The embedder `index.embedding` picks now (`voyage:voyage-code-3`, `local:…`, `none`). */
  embedder: string;
  /** Why that one. */
  reason: string;
  /** Set when the configured embedder cannot be used. */
  warning: string | undefined;
  /** The next update rebuilds the index: the embedder changed, or the index was written by an older nyzhi (rows of an older format). */
  rebuildPending: boolean;
  /** False when the last update stopped before the end; the next one goes on from there. */
  complete: boolean;
  /** ISO 8601 time of the last saved update. */
  updatedAt: string | undefined;
}

/** One project's code index. */
export interface CodeIndex {
  readonly root: string;
  update(options?: UpdateOptions): Promise<UpdateResult>;
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  status(): Promise<IndexStatus>;
  /** Deletes the index (waits for a running update's lock). */
  clear(): Promise<void>;
  /** Closes the table and stops the embedder's worker. */
  close(): Promise<void>;
  /**
   * Tokens the embedder has reported since this index was opened (remote embedders; 0 for none
   * and local ones), for the host's usage and cost.
   */
  embeddingTokens(): Promise<number>;
}

/** Searching a project that has no index yet. */
export class IndexNotBuiltError extends NyzhiError {
  constructor(root: string) {
    super("index_not_built", `There is no code index for ${root} yet. Run \`nyz index\` to build it.`);
  }
}

/** Opens (without building) the code index of the project at `root`. */
export function createIndex(options: CreateIndexOptions): CodeIndex {
  const location = indexLocation(options.root, options.env);
  const reader = new IndexReader(location);
  let choice: Promise<EmbedderChoice> | undefined;
  const choose = (): Promise<EmbedderChoice> => {
    choice ??= givenChoice(options) ?? chooseEmbedder(options);
    return choice;
  };

  const search = async (query: string, searchOptions: SearchOptions = {}): Promise<SearchResult[]> => {
    for (let attempt = 1; ; attempt++) {
      const snapshot = await reader.snapshot();
      if (!snapshot) throw new IndexNotBuiltError(location.root);
      if (!snapshot.table) return [];
      try {
        const embedder = (await choose()).create();
        const vectorSide =
          snapshot.table.dimensions !== undefined &&
          embedder &&
          embedderMatches(snapshot.manifest.embedderId ?? undefined, embedder);
        const queryVector = vectorSide ? await embedQuery(embedder, query, searchOptions.signal) : undefined;
        return await searchChunks(snapshot.table, query, {
          ...searchOptions,
          queryVector,
          paths: Object.keys(snapshot.manifest.files),
        });
      } catch (error) {
        // A writer may have just replaced the version this reader held: read the manifest again.
        if (attempt >= 3 || searchOptions.signal?.aborted) throw error;
        reader.invalidate();
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
  };

  return {
    root: location.root,
    async update(updateOptions = {}) {
      const embedder = (await choose()).create();
      return updateIndex(
        {
          location,
          embedder,
          walkProject: options.walkProject ?? walkProject,
          chunkFile: options.chunkFile ?? chunkFile,
          exclude: [...indexExclusions(options.config), ...nyzhiOutputExclusions(location.root, options.env)],
          maxFileBytes: options.config.index.max_file_bytes,
        },
        updateOptions,
      );
    },
    search,
    async status() {
      const [manifest, pending, chosen] = await Promise.all([
        readManifest(location.manifestPath),
        readManifest(location.nextManifestPath).catch(() => undefined),
        choose(),
      ]);
      const wantedId = chosen.provider === "none" ? undefined : (chosen.create()?.id ?? undefined);
      const builtWith = manifest ? (manifest.embedderId ?? "none") : undefined;
      return {
        root: location.root,
        directory: location.directory,
        built: manifest !== undefined,
        files: manifest ? Object.keys(manifest.files).length : 0,
        chunks: manifest ? manifestChunkCount(manifest) : 0,
        builtWith,
        embedder: wantedId ?? "none",
        reason: chosen.reason,
        warning: chosen.warning,
        rebuildPending:
          manifest !== undefined &&
          (pending !== undefined ||
            !rowsAreCurrent(manifest) ||
            !embedderMatches(manifest.embedderId ?? undefined, chosen.create())),
        complete: manifest?.complete ?? false,
        updatedAt: manifest?.updatedAt,
      };
    },
    async clear() {
      reader.close();
      await withFileLock(
        location.lockPath,
        async () => {
          await rm(location.databasePath, { recursive: true, force: true });
          await rm(location.nextManifestPath, { force: true });
          await rm(location.manifestPath, { force: true });
        },
        { timeoutMs: 3000 },
      );
      await rm(location.directory, { recursive: true, force: true });
    },
    async embeddingTokens() {
      return choice ? ((await choice).create()?.usage?.tokens ?? 0) : 0;
    },
    async close() {
      reader.close();
      if (choice) await (await choice).create()?.close?.();
    },
  };
}

function givenChoice(options: CreateIndexOptions): Promise<EmbedderChoice> | undefined {
  if (options.embedder === undefined) return undefined;
  const embedder = options.embedder ?? undefined;
  return Promise.resolve({
    provider: embedder ? "local" : "none",
    model: embedder?.model,
    reason: embedder ? `the host chose ${embedder.id}.` : "the host chose full-text (BM25) search only.",
    warning: undefined,
    create: () => embedder,
  });
}

async function embedQuery(
  embedder: Embedder,
  query: string,
  signal?: AbortSignal,
): Promise<Float32Array | number[]> {
  if (embedder.embedQuery) return embedder.embedQuery(query, signal);
  const [vector] = await embedder.embed([query], signal);
  if (!vector) throw new NyzhiError("embedder_failed", `${embedder.id} returned no vector for the query.`);
  return vector;
}
