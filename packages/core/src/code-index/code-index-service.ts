import { stat } from "node:fs/promises";
import { type Environment, getLogger, type NyzhiConfig } from "@nyzhi/config";
import type { CodeIndex, IndexProgress, SearchOptions, SearchResult, UpdateResult } from "@nyzhi/index";
import { type FileWatcher, watchProjectFiles } from "./watch-project-files.js";

/** The key of the session's code index in `ToolServices`. */
export const CODE_INDEX_SERVICE = "codeIndex";

/**
 * Projects with more files than this (by the index walker's count) are not indexed on their own
 * when `index.auto` is on: a first full-text build of 20,000 files takes ~15 s on two cores (chunking
 * ~1,800 files/s, see packages/index/README.md), and with a remote embedder about 150,000 chunks
 * to pay for. `nyz index` builds any size on request.
 */
export const AUTO_INDEX_MAX_FILES = 20_000;

/** ms a session waits before building a missing index, so a quick `nyz exec` never pays for it. */
export const BACKGROUND_BUILD_DELAY_MS = 2_000;

/** What the index is doing, for `index-progress` events. */
export interface IndexActivity {
  /** `building`: the background first build; `updating`: changed files; `ready`: done; `skipped`: not built. */
  phase: "building" | "updating" | "ready" | "skipped";
  filesDone: number;
  filesTotal: number;
  chunks: number;
  /** Chunks embedded (remote or local) by this update. */
  embedded: number;
  /** Tokens a remote embedder reported for this update (0 for none or local). */
  embeddingTokens: number;
  message?: string;
}

export interface CodeIndexServiceOptions {
  root: string;
  env: Environment;
  config: NyzhiConfig;
  /** Opens the index; default `createIndex` of `@nyzhi/index`, loaded on first use. */
  open?: () => Promise<CodeIndex>;
  /** Where the manifest of a built index is; default from `indexLocation`. */
  manifestPath?: () => Promise<string>;
  onActivity?: (activity: IndexActivity) => void;
  /** Watch the project for changes made by other processes (default true). */
  watch?: boolean;
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
  #index: Promise<CodeIndex> | undefined;
  #built = false;
  #pending = new Set<string>();
  #writing: Promise<void> = Promise.resolve();
  #flushScheduled = false;
  #watcher: FileWatcher | undefined;
  #building: Promise<void> | undefined;
  #closed = false;
  #ready: Promise<boolean> | undefined;
  #timer: NodeJS.Timeout | undefined;

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

  /** Whether the background first build is running. */
  get building(): boolean {
    return this.#building !== undefined;
  }

  /**
   * Searches the index, after the session's own pending changes are in; `undefined` when there is
   * no index yet.
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult[] | undefined> {
    if (!(await this.isBuilt())) return undefined;
    await this.#writing;
    if (this.#pending.size > 0) await this.#flush();
    const index = await this.#open();
    try {
      return await index.search(query, options);
    } catch (error) {
      if ((error as { code?: string }).code === "index_not_built") return undefined;
      throw error;
    }
  }

  /** Files changed (by the agents' tools or another process): re-indexed at once, in order. */
  filesChanged(paths: readonly string[]): void {
    if (this.#closed || paths.length === 0) return;
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

  /**
   * Session start: a built index is watched at once; a missing one is built in the background
   * after `delayMs` when `index.auto` is on and the project is small enough, then watched.
   */
  start(options: { delayMs?: number } = {}): void {
    const { config } = this.#options;
    if (!config.index.enabled) return;
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

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#watcher?.close();
    await this.#writing.catch(() => undefined);
    if (this.#index) await (await this.#index).close();
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
    const { walkProject } = await import("@nyzhi/index");
    const walk = await walkProject(this.#options.root, { exclude: this.#options.config.index.exclude });
    if (walk.files.length > AUTO_INDEX_MAX_FILES) {
      this.#emit({
        phase: "skipped",
        filesDone: 0,
        filesTotal: walk.files.length,
        chunks: 0,
        embedded: 0,
        embeddingTokens: 0,
        message: `not indexed on its own: ${walk.files.length} files (more than ${AUTO_INDEX_MAX_FILES}); run \`nyz index\` to build it`,
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
  async #update(request: { paths?: string[] }, phase: "building" | "updating"): Promise<boolean> {
    const index = await this.#open();
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        const tokensBefore = await embeddingTokens(index);
        let last: IndexProgress | undefined;
        const result: UpdateResult = await index.update({
          ...(request.paths ? { paths: request.paths } : {}),
          onProgress: (progress) => {
            last = progress;
            if (phase === "building") this.#emit(activityOf(progress, phase, 0));
          },
        });
        const tokens = (await embeddingTokens(index)) - tokensBefore;
        if (phase === "building" || result.indexed > 0 || result.removed > 0 || tokens > 0)
          this.#emit({
            ...activityOf(last, "ready", tokens),
            filesDone: result.indexed,
            chunks: result.chunks,
            embedded: result.embedded,
          });
        return true;
      } catch (error) {
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
    } catch (error) {
      getLogger().warn({ error }, "code index: could not watch the project");
    }
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

function activityOf(
  progress: IndexProgress | undefined,
  phase: IndexActivity["phase"],
  tokens: number,
): IndexActivity {
  return {
    phase,
    filesDone: progress?.filesDone ?? 0,
    filesTotal: progress?.filesTotal ?? 0,
    chunks: progress?.chunksDone ?? 0,
    embedded: progress?.embedded ?? 0,
    embeddingTokens: tokens,
  };
}

/** The tokens the index's embedder has reported so far (remote embedders count them). */
async function embeddingTokens(index: CodeIndex): Promise<number> {
  return index.embeddingTokens();
}
