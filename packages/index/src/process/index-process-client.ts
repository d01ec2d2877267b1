import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { type Environment, getLogger, type NyzhiConfig } from "@nyzhi/config";
import type { CodeIndex } from "../indexer/create-index.js";
import type { IndexProgress } from "../indexer/index-pipeline.js";
import {
  type ChildMessage,
  type HostMessage,
  type IndexCall,
  type IndexCallResults,
  IndexProcessError,
  RemoteIndexError,
} from "./index-process-messages.js";

export interface OpenIndexProcessOptions {
  /** The program that serves the index (`serveIndexProcess`): `process.execPath` for nyz. */
  command: string;
  /** Its arguments: `[<path of nyz.cjs>, "__index-process"]` for nyz. */
  args: readonly string[];
  /** The project root. */
  root: string;
  /** The child's environment, and the one its index locates the data dir and keys with. */
  env: Environment;
  /** The merged config; the child opens the index with it. */
  config: NyzhiConfig;
  /** New children started after one ended unexpectedly, before calls fail for good. Default 3. */
  maxRestarts?: number;
}

/** A project's code index served by a child process (LanceDB and tree-sitter live there). */
export interface IndexProcess extends CodeIndex {
  /** The running child's pid; undefined before the first call, after close() or after a crash. */
  readonly pid: number | undefined;
  /** Files the index's walker keeps in the project with these `index.exclude` globs (walked in the child). */
  countFiles(options?: { exclude?: readonly string[] }): Promise<number>;
}

export const DEFAULT_MAX_RESTARTS = 3;

/**
 * What the index process's environment adds to the host's: glibc's malloc limited to 2 arenas.
 * LanceDB writes from many native threads, and with glibc's default (8 arenas a core) the freed
 * memory of each thread's arena stays in the process: indexing 5,000 files peaked at 589 MB RSS
 * with a JS heap of ~50 MB; with 2 arenas, 406 MB, in the same time (docs/performance.md, "Code
 * index memory"). A value the user set is kept; other C libraries ignore the variable.
 */
export function indexProcessEnv(env: Environment): Environment {
  return env.MALLOC_ARENA_MAX === undefined ? { ...env, MALLOC_ARENA_MAX: "2" } : env;
}
/** How long close() waits for the child to close its index and then to exit, ms. */
const CLOSE_MS = 5000;
const EXIT_MS = 2000;
/** Characters of the child's stderr kept for the error and the log when it ends. */
const STDERR_TAIL = 2000;

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress: ((progress: IndexProgress) => void) | undefined;
}

interface Child {
  process: ChildProcess;
  pending: Map<number, PendingCall>;
  stderr: string;
  /** The last embedding-token count it reported. */
  tokens: number;
  closing: boolean;
  ended: boolean;
}

/**
 * Opens the code index of `root` in a child process (`command args`, which runs
 * `serveIndexProcess`), started on the first call, so the host never loads LanceDB or runs the
 * chunker on its own event loop. Calls travel over Node's IPC channel with ids; the child's errors
 * come back with their NyzhiError code. When the child ends unexpectedly the waiting calls reject
 * with an IndexProcessError (`index_process_exited`), it is logged, and the next call starts a
 * new child, at most `maxRestarts` times. The child ends on close(), and by itself when this
 * process dies (its IPC channel closes).
 */
export function openIndexProcess(options: OpenIndexProcessOptions): IndexProcess {
  const root = resolve(options.root);
  const maxRestarts = options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const described = [options.command, ...options.args].join(" ");
  let child: Child | undefined;
  let nextId = 1;
  let crashes = 0;
  let closed: Promise<void> | undefined;
  /** Embedding tokens reported by children that have ended. */
  let endedTokens = 0;

  const ended = (state: Child, how: string) => {
    if (state.ended) return;
    state.ended = true;
    if (child === state) child = undefined;
    endedTokens += state.tokens;
    const waiting = state.pending.size;
    if (!state.closing) {
      crashes++;
      getLogger(options.env).warn(
        { command: described, how, waiting, stderr: state.stderr.slice(-STDERR_TAIL) },
        "code index: its process ended unexpectedly",
      );
    }
    const error = state.closing
      ? new IndexProcessError("index_process_closed", `The code index of ${root} was closed.`)
      : new IndexProcessError(
          "index_process_exited",
          `The code index's process (${described}) ${how}; ${waiting} waiting call(s) failed. ${crashes > maxRestarts ? "The index is off for this session" : "The next call starts a new one"}; see nyzhi.log.${tail(state.stderr)}`,
        );
    for (const call of state.pending.values()) call.reject(error);
    state.pending.clear();
  };

  const start = (): Child => {
    const spawned = spawn(options.command, [...options.args], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
      env: indexProcessEnv(options.env) as NodeJS.ProcessEnv,
      windowsHide: true,
    });
    const state: Child = {
      process: spawned,
      pending: new Map(),
      stderr: "",
      tokens: 0,
      closing: false,
      ended: false,
    };
    spawned.stderr?.setEncoding("utf8");
    spawned.stderr?.on("data", (text: string) => {
      state.stderr = (state.stderr + text).slice(-STDERR_TAIL);
    });
    spawned.on("message", (message: ChildMessage) => {
      const call = state.pending.get(message.id);
      if (!call) return;
      if (message.type === "progress") return call.onProgress?.(message.progress);
      state.pending.delete(message.id);
      if (message.ok) call.resolve(message.value);
      else call.reject(new RemoteIndexError(message.error));
    });
    spawned.on("error", (error) => {
      if (spawned.pid === undefined) ended(state, `could not be started (${error.message})`);
    });
    // After the last messages it sent: "exit" once the channel is closed too ("close" also waits
    // for the stderr pipe, and is not emitted at all after this side disconnected).
    spawned.on("exit", (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? "?"}`;
      if (spawned.connected) spawned.once("disconnect", () => ended(state, how));
      else ended(state, how);
    });
    post(state, { type: "open", root, env: options.env, config: options.config });
    keepAlive(state);
    return state;
  };

  const running = (): Child => {
    if (closed) throw new IndexProcessError("index_process_closed", `The code index of ${root} was closed.`);
    if (child) return child;
    if (crashes > maxRestarts)
      throw new IndexProcessError(
        "index_process_failed",
        `The code index's process (${described}) ended unexpectedly ${crashes} times; the index is off for this session. See nyzhi.log.`,
      );
    child = start();
    return child;
  };

  const call = <Method extends IndexCall["method"]>(
    request: Extract<IndexCall, { method: Method }>,
    extras: { signal?: AbortSignal | undefined; onProgress?: (progress: IndexProgress) => void } = {},
    state: Child = running(),
  ): Promise<IndexCallResults[Method]> => {
    const id = nextId++;
    return new Promise<IndexCallResults[Method]>((resolvePromise, rejectPromise) => {
      const { signal } = extras;
      const cancel = () => post(state, { type: "cancel", id });
      const settle = () => {
        signal?.removeEventListener("abort", cancel);
        keepAlive(state);
      };
      state.pending.set(id, {
        resolve: (value) => {
          settle();
          resolvePromise(value as IndexCallResults[Method]);
        },
        reject: (error) => {
          settle();
          rejectPromise(error);
        },
        onProgress: extras.onProgress,
      });
      if (!post(state, { type: "request", id, ...request })) {
        const pending = state.pending.get(id);
        state.pending.delete(id);
        pending?.reject(
          new IndexProcessError("index_process_exited", `The code index's process (${described}) has ended.`),
        );
        return;
      }
      keepAlive(state);
      if (signal?.aborted) cancel();
      else signal?.addEventListener("abort", cancel, { once: true });
    });
  };

  return {
    root,
    get pid() {
      return child?.process.pid;
    },
    update: async (updateOptions = {}) =>
      call(
        { method: "update", ...(updateOptions.paths ? { paths: updateOptions.paths } : {}) },
        {
          signal: updateOptions.signal,
          ...(updateOptions.onProgress ? { onProgress: updateOptions.onProgress } : {}),
        },
      ),
    search: async (query, searchOptions = {}) => {
      const { signal, ...rest } = searchOptions;
      return call({ method: "search", query, options: rest }, { signal });
    },
    status: async () => call({ method: "status" }),
    clear: async () => call({ method: "clear" }),
    countFiles: async (countOptions = {}) =>
      call({ method: "countFiles", exclude: countOptions.exclude ?? [] }),
    async embeddingTokens() {
      // A child that is not running has reported nothing yet: no need to start one to ask.
      const state = child;
      if (!state || closed) return endedTokens + (state?.tokens ?? 0);
      state.tokens = await call({ method: "embeddingTokens" }, {}, state);
      return endedTokens + state.tokens;
    },
    close() {
      closed ??= (async () => {
        const state = child;
        if (!state) return;
        await closeChild(state, (request) => call(request, {}, state));
      })();
      return closed;
    },
  };

  /** Sends `message` to the child; false when its channel is already closed. */
  function post(state: Child, message: HostMessage): boolean {
    if (state.ended || !state.process.connected) return false;
    // send() returns false also when its backlog is long, with the message still queued.
    state.process.send(message, (error: Error | null) => {
      if (error) getLogger(options.env).warn({ error }, "code index: could not reach its process");
    });
    return true;
  }
}

/**
 * The child (its handle, IPC channel and stderr pipe) keeps this process alive only while calls
 * wait for it: an idle index never holds up the host's exit.
 */
function keepAlive(state: Child): void {
  const held = state.pending.size > 0;
  const handles = [state.process, state.process.channel, state.process.stderr] as (
    | { ref?(): void; unref?(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) {
    if (held) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** Asks the child to close its index, then lets it go (killed if it does not end in time). */
async function closeChild(state: Child, request: (call: { method: "close" }) => Promise<unknown>) {
  state.closing = true;
  const exited = new Promise<void>((done) => {
    const { process: spawned } = state;
    if (state.ended || spawned.exitCode !== null || spawned.signalCode !== null) done();
    else spawned.once("exit", () => done());
  });
  await within(request({ method: "close" }), CLOSE_MS).catch(() => undefined);
  if (state.process.connected) state.process.disconnect();
  if (
    !(await within(exited, EXIT_MS).then(
      () => true,
      () => false,
    ))
  )
    state.process.kill("SIGKILL");
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolvePromise, rejectPromise) => {
    const timer = setTimeout(() => rejectPromise(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolvePromise, rejectPromise).finally(() => clearTimeout(timer));
  });
}

function tail(stderr: string): string {
  const text = stderr.trim();
  return text ? ` Its last output: ${text.slice(-500)}` : "";
}
