export const packageName = "@nyzhi/index";
export { chunkFile } from "./chunker/chunk-file.js";
export {
  CHARS_PER_TOKEN,
  MAX_CHUNK_TOKENS,
  SPLIT_OVERLAP_LINES,
  WINDOW_LINES,
  WINDOW_OVERLAP_LINES,
} from "./chunker/chunk-limits.js";
export { detectLanguage, type LanguageInfo } from "./chunker/languages.js";
export {
  type ChooseEmbedderOptions,
  chooseEmbedder,
  type EmbedderChoice,
  type GetEmbeddingKey,
} from "./embedders/choose-embedder.js";
export {
  type Embedder,
  EmbedderError,
  type EmbedderUsage,
  embedderId,
  embedderMatches,
} from "./embedders/embedder.js";
export {
  DEFAULT_LOCAL_MODEL,
  findTransformers,
  TRANSFORMERS_PACKAGE,
  transformersInstallHint,
  transformersRuntimeDir,
} from "./embedders/find-transformers.js";
export { LocalEmbedder, type LocalEmbedderOptions } from "./embedders/local-embedder.js";
export { RemoteEmbedder, type RemoteEmbedderOptions } from "./embedders/remote-embedder.js";
export {
  createRemoteEmbedder,
  KEYED_PROVIDERS,
  type KeyedEmbeddingProvider,
  REMOTE_PROVIDER_DEFAULTS,
  type RemoteEmbedderConfig,
  type RemoteEmbeddingProvider,
} from "./embedders/remote-providers.js";
export {
  type CodeIndex,
  type CreateIndexOptions,
  createIndex,
  IndexNotBuiltError,
  type IndexStatus,
} from "./indexer/create-index.js";
export {
  indexExclusions,
  NYZHI_OUTPUT_GLOBS,
  nyzhiOutputExclusions,
  SECRET_FILE_GLOBS,
} from "./indexer/index-exclusions.js";
export type {
  ChunkFileFunction,
  IndexProgress,
  UpdateOptions,
  UpdateResult,
  WalkProjectFunction,
} from "./indexer/index-pipeline.js";
export { IndexBusyError } from "./indexer/update-index.js";
export {
  DEFAULT_MAX_RESTARTS,
  type IndexProcess,
  indexProcessEnv,
  type OpenIndexProcessOptions,
  openIndexProcess,
} from "./process/index-process-client.js";
export { IndexProcessError, RemoteIndexError } from "./process/index-process-messages.js";
export {
  IndexProcessChannelError,
  type ServeIndexProcessOptions,
  serveIndexProcess,
} from "./process/index-process-server.js";
export {
  capPerFile,
  MAX_CHUNKS_PER_FILE,
  type SearchOptions,
  type SearchResult,
} from "./search/search-chunks.js";
export { type IndexLocation, indexLocation } from "./store/index-location.js";
export {
  isLanceDbInstalled,
  LANCEDB_PACKAGES,
  LanceDbMissingError,
} from "./store/load-lancedb.js";
export { IndexDamagedError } from "./store/manifest.js";
export { pathWords, splitIdentifier, splitIdentifiersIn } from "./store/split-identifiers.js";
export {
  GrammarLoadError,
  parseSource,
  type SyntaxNode,
  type SyntaxPoint,
} from "./syntax/parse-source.js";
export type { CodeChunk, WalkedFile, WalkResult } from "./types.js";
export { DEFAULT_IGNORE_RULES } from "./walker/default-ignore-rules.js";
export {
  DEFAULT_MAX_FILE_BYTES,
  IndexRootError,
  type WalkProjectOptions,
  walkProject,
} from "./walker/walk-project.js";
