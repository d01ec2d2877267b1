import type { ModelRequest } from "./model-request.js";
import type { StreamPart } from "./stream-part.js";

export interface StreamOptions {
  /** Aborting stops the HTTP request; the stream then ends with an `aborted` error part. */
  signal?: AbortSignal;
  /**
   * Pass every stream limiter this request meets (`withStreamLimit`): the stream cap counts
   * top-level agents only, and a subagent's request must not queue behind it (or hold a slot the
   * parent's own next request needs). Set by `exemptFromStreamLimit`.
   */
  exemptFromStreamLimit?: boolean;
}

/**
 * The one seam between the agent and a vendor. Implementations never throw from iteration:
 * every failure (HTTP status, network, abort, malformed response) ends the stream with an
 * `error` part. Add behaviour (retry, rotation, logging) by wrapping, as `withRetry` does.
 */
export interface LanguageModel {
  /** Built-in or configured provider id, e.g. `anthropic`, `groq`. */
  readonly providerId: string;
  /** Model id as the vendor knows it. */
  readonly modelId: string;
  doStream(request: ModelRequest, options?: StreamOptions): AsyncIterable<StreamPart>;
}
