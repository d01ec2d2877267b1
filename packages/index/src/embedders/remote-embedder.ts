import { fetchWithProxy, getLogger } from "@nyzhi/config";
import { type Embedder, EmbedderError, type EmbedderUsage, embedderId } from "./embedder.js";

/** What the texts are for: some APIs embed search queries differently from documents. */
export type EmbeddingPurpose = "document" | "query";

/** One vendor's wire format. */
export interface EmbeddingWire {
  /** Texts per request. */
  batchSize: number;
  request(
    texts: string[],
    purpose: EmbeddingPurpose,
  ): { url: string; headers: Record<string, string>; body: unknown };
  /** The vectors in input order and the tokens billed, from the response body. */
  parse(body: unknown): { vectors: number[][]; tokens: number | undefined };
}

export interface RemoteEmbedderOptions {
  provider: string;
  model: string;
  /** Known vector length of the model, so the id is stable before the first request. */
  dimensions?: number | undefined;
  wire: EmbeddingWire;
  /** Attempts per request (429, 5xx and network errors are retried). Default 4. */
  attempts?: number;
  /** First retry delay, doubling, ms. Default 1000. */
  retryDelayMs?: number;
  /** Per-request time limit, ms. Default 60 000. */
  timeoutMs?: number;
  /** Default: the built-in fetch through `HTTPS_PROXY` / `NO_PROXY` (fetchWithProxy). */
  fetch?: typeof fetch;
}

/** Longest wait a `Retry-After` header can ask for, ms. */
const MAX_RETRY_AFTER_MS = 30_000;

/** An embedder behind an HTTP API: batches, retries, and learns the dimension from the first response. */
export class RemoteEmbedder implements Embedder {
  readonly provider: string;
  readonly model: string;
  readonly usage: EmbedderUsage = { tokens: 0 };
  private knownDimensions: number | undefined;

  constructor(private readonly options: RemoteEmbedderOptions) {
    this.provider = options.provider;
    this.model = options.model;
    this.knownDimensions = options.dimensions;
  }

  get id(): string {
    return embedderId(this.provider, this.model, this.knownDimensions);
  }

  get dimensions(): number | undefined {
    return this.knownDimensions;
  }

  embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    return this.embedAll(texts, "document", signal);
  }

  async embedQuery(query: string, signal?: AbortSignal): Promise<number[]> {
    const [vector] = await this.embedAll([query], "query", signal);
    if (!vector) throw new EmbedderError(`${this.provider} returned no vector for the query.`);
    return vector;
  }

  private async embedAll(
    texts: string[],
    purpose: EmbeddingPurpose,
    signal?: AbortSignal,
  ): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.options.wire.batchSize) {
      const batch = texts.slice(start, start + this.options.wire.batchSize);
      const result = this.options.wire.parse(await this.post(batch, purpose, signal));
      if (result.vectors.length !== batch.length) {
        throw new EmbedderError(
          `${this.provider} returned ${result.vectors.length} embeddings for ${batch.length} texts (model ${this.model}).`,
        );
      }
      const length = result.vectors[0]?.length;
      if (length !== undefined) {
        if (this.knownDimensions !== undefined && this.knownDimensions !== length) {
          throw new EmbedderError(
            `${this.provider} model ${this.model} returned vectors of ${length} numbers, expected ${this.knownDimensions}.`,
          );
        }
        this.knownDimensions = length;
      }
      this.usage.tokens += result.tokens ?? 0;
      vectors.push(...result.vectors);
    }
    return vectors;
  }

  /** One request with retries on 429, 5xx and network errors; the parsed JSON body. */
  private async post(texts: string[], purpose: EmbeddingPurpose, signal?: AbortSignal): Promise<unknown> {
    const attempts = this.options.attempts ?? 4;
    let delay = this.options.retryDelayMs ?? 1000;
    const request = this.options.wire.request(texts, purpose);
    const fetchImpl = this.options.fetch ?? fetchWithProxy;
    let lastProblem = "";
    for (let attempt = 1; attempt <= attempts; attempt++) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
      let response: Response;
      try {
        response = await fetchImpl(request.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...request.headers },
          body: JSON.stringify(request.body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        lastProblem = error instanceof Error ? error.message : String(error);
        await this.pause(attempt, attempts, delay, signal, lastProblem);
        delay *= 2;
        continue;
      }
      if (response.ok) return response.json();
      const body = (await response.text().catch(() => "")).slice(0, 200);
      lastProblem = `HTTP ${response.status}${body ? `: ${body}` : ""}`;
      if (response.status !== 429 && response.status < 500) throw this.refused(response.status, body);
      const retryAfter = Number(response.headers.get("retry-after"));
      const wait =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS)
          : delay;
      await this.pause(attempt, attempts, wait, signal, lastProblem);
      delay *= 2;
    }
    throw new EmbedderError(
      `${this.provider} embeddings failed after ${attempts} attempts (model ${this.model}): ${lastProblem}`,
    );
  }

  private async pause(
    attempt: number,
    attempts: number,
    ms: number,
    signal: AbortSignal | undefined,
    problem: string,
  ): Promise<void> {
    if (attempt >= attempts) return;
    getLogger().warn({ provider: this.provider, attempt, problem }, "embeddings request failed, retrying");
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  private refused(status: number, body: string): EmbedderError {
    const keyProblem = status === 401 || status === 403;
    return new EmbedderError(
      keyProblem
        ? `${this.provider} refused the embeddings key (HTTP ${status}): ${body}. Check the key (index.embedding = "${this.provider}").`
        : `${this.provider} refused the embeddings request (HTTP ${status}, model ${this.model}): ${body}. Check index.embedding_model.`,
    );
  }
}
