import { type Environment, type NyzhiConfig, NyzhiError } from "@nyzhi/config";
import type { IndexStatus } from "../indexer/create-index.js";
import type { IndexProgress, UpdateResult } from "../indexer/index-pipeline.js";
import type { SearchOptions, SearchResult } from "../search/search-chunks.js";

/**
 * The messages between a host and its code index's child process (`openIndexProcess` and
 * `serveIndexProcess`), over Node's IPC channel with `serialization: "advanced"` (structured
 * clone: `undefined` fields and typed arrays survive). Every request carries an id; the child
 * answers each with one `result` of that id, after any number of `progress` messages of it.
 */

/** What the child opens its index with: the first message on the channel. */
export interface OpenMessage {
  type: "open";
  root: string;
  env: Environment;
  config: NyzhiConfig;
}

/** The calls of `CodeIndex` (signals and callbacks stay in the host), plus the walker's count. */
export type IndexCall =
  | { method: "update"; paths?: readonly string[] }
  | { method: "search"; query: string; options: Omit<SearchOptions, "signal"> }
  | { method: "status" }
  | { method: "clear" }
  | { method: "embeddingTokens" }
  | { method: "countFiles"; exclude: readonly string[] }
  | { method: "close" };

/** What each call resolves with. */
export interface IndexCallResults {
  update: UpdateResult;
  search: SearchResult[];
  status: IndexStatus;
  clear: undefined;
  embeddingTokens: number;
  countFiles: number;
  close: undefined;
}

export type RequestMessage = { type: "request"; id: number } & IndexCall;

/** The host's signal aborted: the child aborts the call's own signal. */
export interface CancelMessage {
  type: "cancel";
  id: number;
}

export type HostMessage = OpenMessage | RequestMessage | CancelMessage;

/** An error as it crosses the channel: the class is lost, the NyzhiError `code` is kept. */
export interface SerializedError {
  name: string;
  code: string | undefined;
  message: string;
  stack: string | undefined;
}

export type ChildMessage =
  | { type: "progress"; id: number; progress: IndexProgress }
  | { type: "result"; id: number; ok: true; value: unknown }
  | { type: "result"; id: number; ok: false; error: SerializedError };

/**
 * An error thrown in the index's child process, rethrown in the host with the same `code`
 * (`index_not_built`, `index_busy`, …), name and message, so callers branch on it as on the
 * in-process error.
 */
export class RemoteIndexError extends NyzhiError {
  constructor(error: SerializedError) {
    super(error.code ?? "index_failed", error.message);
    this.name = error.name;
    if (error.stack) this.stack = error.stack;
  }
}

/**
 * The code index's child process could not be started, ended while calls were waiting, or was
 * closed. `index_process_exited`: it ended (the next call starts a new one);
 * `index_process_failed`: it could not be kept running; `index_process_closed`: called after close().
 */
export class IndexProcessError extends NyzhiError {}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      code: typeof code === "string" ? code : undefined,
      message: error.message,
      stack: error.stack,
    };
  }
  return { name: "Error", code: undefined, message: String(error), stack: undefined };
}
