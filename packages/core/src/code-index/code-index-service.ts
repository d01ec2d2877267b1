import { stat } from "node:fs/promises";
import { type Environment, getLogger, type NyzhiConfig } from "@nyzhi/config";
import type {
  CodeIndex,
  IndexProcess,
  IndexProgress,
  SearchOptions,
  SearchResult,
  UpdateResult,
} from "@nyzhi/index";
import type { AgentEvents } from "../events/agent-events.js";
import { embeddingCostUsd } from "./embedding-prices.js";
import { type FileWatcher, watchProjectFiles } from "./watch-project-files.js";

/** The key of the session's code index in `ToolServices`. */
export const CODE_INDEX_SERVICE = "codeIndex";

/**
 * Projects with more files than this (by the index walker's count) are not indexed on their own
 * when `index.auto` is on: a first full-text build of 20,000 files takes ~15 s on two cores (chunking
 * ~1,800 files/s, see packages/index/DEVELOPING.md), and with a remote embedder about 150,000 chunks
 * to pay for. `nyz index` builds any size on request.
 */
export const AUTO_INDEX_MAX_FILES = 20_000;

/** ms a session waits before building a missing index, so a quick `nyz exec` never pays for it. */
export const BACKGROUND_BUILD_DELAY_MS = 2_000;

/** What the index is doing: the payload of `index-progress` events. */
export type IndexActivity = Omit<AgentEvents["index-progress"], "sessionTotal">;

/** Tokens and cost (US dollars) of a remote embedder, for the session's usage. */
export interface EmbeddingUsage {
  tokens: number;
  costUsd: number;
}

export interface CodeIndexServiceOptions {
  root: string;
  env: Environment;
  config: NyzhiConfig;
  /**
   * Opens the index; default `createIndex` of `@nyzhi/index`, loaded on first use. An
   * `IndexProcess` (`openIndexProcess`) keeps LanceDB and the chunker in a child process.
   */
  open?: () => Promise<CodeIndex>;
  /** Where the manifest of a built index is; default from `indexLocation`. */
  manifestPath?: () => Promise<string>;
  onActivity?: (activity: IndexActivity) => void;
  /** Watch the project for changes made by other processes (default true). */
  watch?: boolean;
  /**
   * Use an index that exists without ever writing it (headless runs): `start` does nothing, changed
   * files are not re-indexed, nothing is built; the index opens on the first search or `ready`.
   */
  readOnly?: boolean;
}

/**
 * One session's use of the project's code index: searches (which wait for the session's own
 * pending edits to be indexed), re-indexing of the files the agents' tools change, a watcher for
 * changes made by others, and a first build in the background. `@nyzhi/index` (LanceDB,
 * tree-sitter) is loaded only when something needs it, so a session that never searches pays
 * nothing at start-up. Never throws into the turn: failures are logged.
 */
export class CodeIndexService {
  readonly #options: CodeIndexServiceOptions;
  #off = false;
  #index: Promise<CodeIndex> | undefined;
  #built = false;
  #pending = new Set<string>();
  #writing: Promise<void> = Promise.resolve();
  #flushScheduled = false;
  #watcher: FileWatcher | undefined;
  #catchingUp: AbortController | undefined;
  #building: Promise<void> | undefined;
  #closed = false;
  #ready: Promise<boolean> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #embedding: EmbeddingUsage = { tokens: 0, costUsd: 0 };
  #tokensSeen = 0;
  #embedderId: Promise<string | undefined> | undefined;
  #started = false;

  constructor(options: CodeIndexServiceOptions) {
    this.#options = options;
  }

  get root(): string {
    return this.#options.root;
  }

  /** Whether a built index exists (a manifest is on disk); cheap, loads no LanceDB. */
  async isBuilt(): Promise<boolean> {
    if (this.#built) return true;
    try {
      await stat(await this.#manifestPath());
      this.#built = true;
    } catch {
      this.#built = false;
    }
    return this.#built;
  }

  /**
   * Resolves true once the index is built and open (LanceDB loaded, the table read once), false
   * when there is none yet. Started at session start, so the first turn's auto-context finds it
   * warm; a false answer is not kept (a background build may finish later).
   */
  ready(): Promise<boolean> {
    if (this.#ready) return this.#ready;
    const warming = (async () => {
      if (!(await this.isBuilt())) return false;
      await (await this.#open()).search("index", { k: 1 });
      return true;
    })().catch((error: unknown) => {
      getLogger().warn({ error }, "code index: could not open the index");
      return false;
    });
    this.#ready = warming;
    void warming.then((ready) => {
      if (!ready && this.#ready === warming) this.#ready = undefined;
    });
    return warming;
  }

  /**
   * What the embedder has charged this session: updates and the embedded queries of searches
   * (remote embedders report tokens; local ones and full-text indexes none).
   */
  embeddingUsage(): EmbeddingUsage {
    return { ...this.#embedding };
  }

  /** Whether the background first build is running. */
  get building(): boolean {
    return this.#building !== undefined;
  }

  /**
   * Searches the index, after the session's own pending changes are in; `undefined` when there is
   * no index yet (or its child process failed).
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult[] | undefined> {
    if (this.#off || !(await this.isBuilt())) return undefined;
    await this.#writing;
    if (this.#pending.size > 0) await this.#flush();
    const index = await this.#open();
    try {
      return await index.search(query, options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "index_not_built") return undefined;
      // The index's child process ended (or was given up on): full-text matches instead.
      if (code?.startsWith("index_process_")) {
        getLogger().warn({ error }, "code index: search failed");
        return undefined;
      }
      throw error;
    } finally {
      await this.#countEmbedding(index);
    }
  }

  /** Files changed (by the agents' tools or another process): re-indexed at once, in order. */
  filesChanged(paths: readonly string[]): void {
    if (this.#closed || this.#options.readOnly || paths.length === 0) return;
    for (const path of paths) this.#pending.add(path);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    queueMicrotask(() => {
      this.#flushScheduled = false;
      void this.#flush();
    });
  }

  /** Waits for every change handed in so far to be indexed (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#writing;
    if (this.#pending.size > 0) await this.#flush();
    await this.#building;
  }

  /** Whether `start` has been called: the index (and, for the app, its child process) is in use. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * The index's first need (a session's first turn, or the app's first key of a prompt): a built
   * index is opened and watched at once; a missing one is built in the background after `delayMs`
   * when `index.auto` is on and the project is small enough, then watched. Later calls do nothing,
   * so an idle session never loads LanceDB nor starts the index's child process. Read-only:
   * nothing (the index opens when first searched).
   */
  start(options: { delayMs?: number } = {}): void {
    const { config } = this.#options;
    if (!config.index.enabled || this.#options.readOnly || this.#started || this.#closed) return;
    this.#started = true;
    void this.isBuilt().then((built) => {
      if (this.#closed) return;
      if (built) {
        void this.ready();
        void this.#watch();
        return;
      }
      if (!config.index.auto) return;
      this.#timer = setTimeout(() => {
        this.#building = this.#buildFirst().finally(() => {
          this.#building = undefined;
        });
      }, options.delayMs ?? BACKGROUND_BUILD_DELAY_MS);
      this.#timer.unref();
    });
  }

  /** Whether `/index off` turned the index off for this session. */
  get off(): boolean {
    return this.#off;
  }

  /** `/index off`: closed for the rest of the session; searches and auto-context find no index. */
  async turnOff(): Promise<void> {
    this.#off = true;
    this.#ready = Promise.resolve(false);
    await this.close();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#catchingUp?.abort();
    await this.#watcher?.close();
    await this.#writing.catch(() => undefined);
    if (!this.#index) return;
    const index = await this.#index;
    // What a search outside `search` (the warm-up in `ready`) was billed counts too.
    await this.#countEmbedding(index);
    await index.close();
  }

  async #flush(): Promise<void> {
    const run = async () => {
      if (this.#pending.size === 0 || !(await this.isBuilt())) return;
      const paths = [...this.#pending];
      this.#pending.clear();
      await this.#update({ paths }, "updating");
    };
    this.#writing = this.#writing.then(run, run);
    return this.#writing;
  }

  async #buildFirst(): Promise<void> {
    const files = await this.#countFiles().catch((error: unknown) => {
      getLogger().warn({ error }, "code index: could not list the project's files");
      return undefined;
    });
    if (files === undefined) return;
    if (files > AUTO_INDEX_MAX_FILES) {
      this.#emit({
        phase: "skipped",
        filesDone: 0,
        filesTotal: files,
        chunks: 0,
        embedded: 0,
        embeddingTokens: 0,
        costUsd: 0,
        message: `not indexed on its own: ${files} files (more than ${AUTO_INDEX_MAX_FILES}); run \`nyz index\` to build it`,
      });
      return;
    }
    const done = await this.#update({}, "building");
    if (done && !this.#closed) {
      this.#built = true;
      await this.#watch();
    }
  }

  /** One update under the index's write lock; another process writing makes it wait and retry. */
  async #update(
    request: { paths?: string[]; signal?: AbortSignal },
    phase: "building" | "updating",
  ): Promise<boolean> {
    const index = await this.#open();
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        await this.#countEmbedding(index);
        let last: IndexProgress | undefined;
        const result: UpdateResult = await index.update({
          ...(request.paths ? { paths: request.paths } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
          onProgress: (progress) => {
            last = progress;
            if (phase === "building") this.#emit(activityOf(progress, phase, { tokens: 0, costUsd: 0 }));
          },
        });
        const spent = await this.#countEmbedding(index);
        if (phase === "building" || result.indexed > 0 || result.removed > 0 || result.embedded > 0)
          this.#emit({
            ...activityOf(last, "ready", spent),
            filesDone: result.indexed,
            chunks: result.chunks,
            embedded: result.embedded,
          });
        return true;
      } catch (error) {
        // A catch-up stopped by close: nothing failed.
        if (request.signal?.aborted) return false;
        if ((error as { code?: string }).code !== "index_busy" || this.#closed) {
          getLogger().warn({ error, paths: request.paths }, "code index: update failed");
          return false;
        }
      }
    }
    return false;
  }

  async #watch(): Promise<void> {
    if (this.#watcher || this.#closed || this.#options.watch === false) return;
    try {
      this.#watcher = await watchProjectFiles(this.#options.root, (paths) => this.filesChanged(paths));
      if (this.#closed) await this.#watcher.close();
      else this.#catchUp();
    } catch (error) {
      getLogger().warn({ error }, "code index: could not watch the project");
    }
  }

  /**
   * Once the watcher sees changes, one update over the whole project brings in what it cannot
   * see: files changed while no session ran, and while its first scan ran (~0.4 s for 1,500
   * directories, more on a busy machine). Only files whose size or time changed are read again;
   * `close` stops it after the current batch.
   */
  #catchUp(): void {
    const controller = new AbortController();
    this.#catchingUp = controller;
    const run = async () => {
      if (!controller.signal.aborted) await this.#update({ signal: controller.signal }, "updating");
    };
    this.#writing = this.#writing.then(run, run);
  }

  /** Adds what the embedder charged since the last count to the session's; returns that part. */
  async #countEmbedding(index: CodeIndex): Promise<EmbeddingUsage> {
    const total = await index.embeddingTokens().catch(() => this.#tokensSeen);
    const tokens = total - this.#tokensSeen;
    if (tokens <= 0) return { tokens: 0, costUsd: 0 };
    this.#tokensSeen = total;
    this.#embedderId ??= index.status().then(
      (status) => status.embedder,
      () => undefined,
    );
    const costUsd = embeddingCostUsd(await this.#embedderId, tokens);
    this.#embedding = { tokens: this.#embedding.tokens + tokens, costUsd: this.#embedding.costUsd + costUsd };
    return { tokens, costUsd };
  }

  /**
   * The files a first build would index: counted by the index's own process when it runs in one
   * (`IndexProcess`), so the walk stays off this event loop; else walked here.
   */
  async #countFiles(): Promise<number> {
    const exclude = this.#options.config.index.exclude;
    const index = await this.#open();
    if (countsFiles(index)) return index.countFiles({ exclude });
    const { walkProject } = await import("@nyzhi/index");
    return (await walkProject(this.#options.root, { exclude })).files.length;
  }

  #open(): Promise<CodeIndex> {
    this.#index ??= this.#options.open
      ? this.#options.open()
      : import("@nyzhi/index").then(({ createIndex }) =>
          createIndex({ root: this.#options.root, env: this.#options.env, config: this.#options.config }),
        );
    return this.#index;
  }

  async #manifestPath(): Promise<string> {
    if (this.#options.manifestPath) return this.#options.manifestPath();
    const { indexLocation } = await import("@nyzhi/index");
    return indexLocation(this.#options.root, this.#options.env).manifestPath;
  }

  #emit(activity: IndexActivity): void {
    this.#options.onActivity?.(activity);
  }
}

/** Whether the index can count the project's files itself (an `IndexProcess` does, in its child). */
function countsFiles(index: CodeIndex): index is CodeIndex & Pick<IndexProcess, "countFiles"> {
  return typeof (index as Partial<IndexProcess>).countFiles === "function";
}

function activityOf(
  progress: IndexProgress | undefined,
  phase: IndexActivity["phase"],
  spent: EmbeddingUsage,
): IndexActivity {
  return {
    phase,
    filesDone: progress?.filesDone ?? 0,
    filesTotal: progress?.filesTotal ?? 0,
    chunks: progress?.chunksDone ?? 0,
    embedded: progress?.embedded ?? 0,
    embeddingTokens: spent.tokens,
    costUsd: spent.costUsd,
  };
}
