import { sep } from "node:path";
import { Worker } from "node:worker_threads";
import { type Embedder, EmbedderError, embedderId } from "./embedder.js";
import { LOCAL_MODEL_DIMENSIONS } from "./find-transformers.js";
import { LOCAL_EMBEDDER_WORKER_SOURCE } from "./local-embedder-worker.js";

export interface LocalEmbedderOptions {
  /** The CommonJS entry of transformers.js (findTransformers). */
  transformersPath: string;
  /** Model id (`Xenova/all-MiniLM-L6-v2`), a folder under `modelFolder`'s parent or the cache. */
  model: string;
  /** The model's folder when it is on disk (findLocalModel); undefined lets it be downloaded. */
  modelFolder: string | undefined;
  /** Where downloaded models go. */
  cacheDir: string;
  /** May transformers.js download a missing model? Default: only when `modelFolder` is undefined. */
  allowRemote?: boolean;
  /** Texts per message to the worker. Default 16. */
  batchSize?: number;
}

interface WorkerReply {
  id: number;
  data?: Float32Array;
  dims?: number;
  error?: string;
}

/**
 * Embeds with transformers.js in a worker thread, so tokenising and running the ONNX model
 * never blocks the caller's event loop (the app keeps drawing while an index builds). The
 * worker loads the model on its first batch.
 */
export class LocalEmbedder implements Embedder {
  readonly provider = "local";
  readonly model: string;
  private knownDimensions: number | undefined;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }
  >();

  constructor(private readonly options: LocalEmbedderOptions) {
    this.model = options.model;
    this.knownDimensions = LOCAL_MODEL_DIMENSIONS[options.model];
  }

  get id(): string {
    return embedderId(this.provider, this.model, this.knownDimensions);
  }

  get dimensions(): number | undefined {
    return this.knownDimensions;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    const batchSize = this.options.batchSize ?? 16;
    for (let start = 0; start < texts.length; start += batchSize) {
      signal?.throwIfAborted();
      const reply = await this.request(texts.slice(start, start + batchSize));
      const { data, dims } = reply;
      if (!data || !dims) throw new EmbedderError(`The local model ${this.model} returned no vectors.`);
      if (this.knownDimensions !== undefined && this.knownDimensions !== dims) {
        throw new EmbedderError(
          `The local model ${this.model} returned vectors of ${dims} numbers, expected ${this.knownDimensions}.`,
        );
      }
      this.knownDimensions = dims;
      for (let offset = 0; offset < data.length; offset += dims)
        vectors.push(data.subarray(offset, offset + dims));
    }
    return vectors;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private request(texts: string[]): Promise<WorkerReply> {
    const worker = this.startWorker();
    const id = this.nextId++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts });
    }).then((reply) => {
      if (reply.error) {
        throw new EmbedderError(
          `The local model ${this.model} failed: ${reply.error}. Check index.model_dir and index.embedding_model.`,
        );
      }
      return reply;
    });
  }

  private startWorker(): Worker {
    if (this.worker) return this.worker;
    const { options } = this;
    const worker = new Worker(LOCAL_EMBEDDER_WORKER_SOURCE, {
      eval: true,
      workerData: {
        transformersPath: options.transformersPath,
        model: options.model,
        modelFolder: options.modelFolder,
        // transformers.js finds `<localModelPath>/<model id>/…`.
        localRoot: options.modelFolder ? modelRoot(options.modelFolder, options.model) : undefined,
        cacheDir: options.cacheDir,
        allowRemote: options.allowRemote ?? options.modelFolder === undefined,
      },
    });
    // The worker keeps the process alive only while it has work.
    worker.unref();
    worker.on("message", (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      waiter?.resolve(reply);
    });
    const failAll = (error: Error): void => {
      for (const waiter of this.pending.values())
        waiter.reject(new EmbedderError(`The local embedder stopped: ${error.message}`, { cause: error }));
      this.pending.clear();
      this.worker = undefined;
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => {
      if (this.pending.size > 0) failAll(new Error(`worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }
}

/** The folder that holds `<model id>/` given the model's own folder. */
function modelRoot(folder: string, model: string): string {
  const suffix = `${sep}${model.split("/").join(sep)}`;
  return folder.endsWith(suffix) ? folder.slice(0, -suffix.length) : folder;
}
