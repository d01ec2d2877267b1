import { getLogger, NyzhiError } from "@nyzhi/config";
import { type CodeIndex, type CreateIndexOptions, createIndex } from "../indexer/create-index.js";
import type { IndexProgress } from "../indexer/index-pipeline.js";
import { walkProject } from "../walker/walk-project.js";
import {
  type ChildMessage,
  type HostMessage,
  type IndexCall,
  type RequestMessage,
  serializeError,
} from "./index-process-messages.js";

export interface ServeIndexProcessOptions {
  /** Opens the index (tests wrap it); default `createIndex`. */
  createIndex?: (options: CreateIndexOptions) => CodeIndex;
}

/** How long the child waits for its running calls to stop once the host is gone, ms. */
const DRAIN_MS = 3000;

/** Started outside `openIndexProcess`: there is no IPC channel to serve. */
export class IndexProcessChannelError extends NyzhiError {
  constructor() {
    super(
      "index_process_channel",
      "nyz __index-process serves the code index of a running nyz session and is started by it, over an IPC channel; it is not run by hand.",
    );
  }
}

/**
 * The child's side of `openIndexProcess`: answers the host's calls with `createIndex` in this
 * process, so LanceDB and the chunker's tree-sitter live here and not in the host. Resolves once
 * the host has closed the index or is gone (the IPC channel closed, e.g. the host died), after the
 * running calls were aborted and the index closed; the caller then ends the process.
 */
export function serveIndexProcess(options: ServeIndexProcessOptions = {}): Promise<void> {
  const send = process.send?.bind(process);
  if (!send || !process.connected) return Promise.reject(new IndexProcessChannelError());
  const open = options.createIndex ?? createIndex;
  let opened: { index: CodeIndex; root: string } | undefined;
  const running = new Map<number, { controller: AbortController; done: Promise<void> }>();
  const reply = (message: ChildMessage) =>
    new Promise<void>((sent) => {
      if (!process.connected) return sent();
      send(message, undefined, undefined, (error: Error | null) => {
        if (error) getLogger().warn({ error }, "index process: could not answer the host");
        sent();
      });
    });

  return new Promise<void>((resolve) => {
    let stopping: Promise<void> | undefined;
    /** Aborts the running calls, waits for them (at most DRAIN_MS) and closes the index. */
    const stop = () => {
      stopping ??= (async () => {
        process.off("message", onMessage);
        for (const call of running.values()) call.controller.abort();
        await Promise.race([
          Promise.allSettled([...running.values()].map((call) => call.done)),
          new Promise((settle) => setTimeout(settle, DRAIN_MS).unref()),
        ]);
        await opened?.index.close().catch((error: unknown) => {
          getLogger().warn({ error }, "index process: could not close the index");
        });
      })();
      return stopping;
    };

    const run = async (request: RequestMessage & ServedCall, controller: AbortController) => {
      try {
        if (!opened)
          throw new NyzhiError("index_process_not_open", "The index process got a call before `open`.");
        const value = await answer(opened, request, controller.signal, (progress) => {
          void reply({ type: "progress", id: request.id, progress });
        });
        await reply({ type: "result", id: request.id, ok: true, value });
      } catch (error) {
        await reply({ type: "result", id: request.id, ok: false, error: serializeError(error) });
      }
    };

    const onMessage = (message: HostMessage) => {
      if (message.type === "open") {
        const { root, env, config } = message;
        opened = { index: open({ root, env, config }), root };
      } else if (message.type === "cancel") {
        running.get(message.id)?.controller.abort();
      } else if (message.method === "close") {
        void stop()
          .then(() => reply({ type: "result", id: message.id, ok: true, value: undefined }))
          .then(resolve);
      } else {
        const controller = new AbortController();
        const done = run(message, controller).finally(() => running.delete(message.id));
        running.set(message.id, { controller, done });
      }
    };

    process.on("message", onMessage);
    process.once("disconnect", () => void stop().then(resolve));
  });
}

/** The calls answered by the index; `close` ends the serving instead. */
type ServedCall = Exclude<IndexCall, { method: "close" }>;

async function answer(
  opened: { index: CodeIndex; root: string },
  call: ServedCall,
  signal: AbortSignal,
  onProgress: (progress: IndexProgress) => void,
): Promise<unknown> {
  const { index } = opened;
  switch (call.method) {
    case "update":
      return index.update({ ...(call.paths ? { paths: call.paths } : {}), onProgress, signal });
    case "search":
      return index.search(call.query, { ...call.options, signal });
    case "status":
      return index.status();
    case "clear":
      return index.clear();
    case "embeddingTokens":
      return index.embeddingTokens();
    case "countFiles":
      return (await walkProject(opened.root, { exclude: call.exclude, signal })).files.length;
  }
}
