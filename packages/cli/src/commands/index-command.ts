import { type CredentialStore, openCredentialStore, resolveCredential } from "@nyzhi/auth";
import { type NyzhiConfig, NyzhiError } from "@nyzhi/config";
import {
  type CodeIndex,
  createIndex,
  type GetEmbeddingKey,
  type IndexStatus,
  type SearchResult,
} from "@nyzhi/index";
import { ExitCode } from "../io/exit-codes.js";
import type { GlobalFlags } from "../io/global-flags.js";
import type { CommandIo } from "../io/output.js";
import { reportError } from "../io/report-error.js";
import { ProgressReporter, summarizeUpdate } from "./index-progress.js";
import { loadCliConfig } from "./load-cli-config.js";

export interface IndexSearchFlags {
  json?: boolean;
  k?: string;
  path?: string;
  lang?: string;
}

/** How long `nyz index` waits for another process's update of the same index, ms. */
export const INDEX_COMMAND_LOCK_WAIT_MS = 10 * 60_000;

/** `nyz index`: builds or updates this project's index, with progress; Ctrl+C keeps what was done. */
export async function indexUpdateCommand(io: CommandIo, flags: GlobalFlags): Promise<number> {
  return withIndex(io, flags, async (index, status) => {
    if (status.warning) io.stderr(`Warning: ${status.warning}\n`);
    const controller = new AbortController();
    const onSignal = (): void => {
      if (controller.signal.aborted) process.exit(ExitCode.interrupted);
      io.stderr("\nStopping after the current batch (Ctrl+C again to quit at once)…\n");
      controller.abort();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    const reporter = new ProgressReporter(io);
    try {
      const result = await index.update({
        onProgress: reporter.onProgress,
        signal: controller.signal,
        // A session may be re-indexing a large change: wait for it rather than fail.
        lockWaitMs: INDEX_COMMAND_LOCK_WAIT_MS,
        onWaiting: () =>
          io.stderr("Waiting for another nyz process that is updating this index (Ctrl+C to stop)…\n"),
      });
      reporter.finish();
      io.stdout(`${summarizeUpdate(result)}\n`);
      return result.aborted ? ExitCode.interrupted : ExitCode.success;
    } finally {
      reporter.finish();
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  });
}

/** `nyz index status [--json]`: what the index holds, which embedder it uses and why. */
export async function indexStatusCommand(
  io: CommandIo,
  flags: GlobalFlags,
  options: { json?: boolean },
): Promise<number> {
  return withIndex(io, flags, async (_index, status) => {
    if (options.json) {
      io.stdout(`${JSON.stringify(status, null, 2)}\n`);
      return ExitCode.success;
    }
    io.stdout(formatStatus(status));
    return ExitCode.success;
  });
}

/** `nyz index search "query" [--json] [-k N] [--path GLOB] [--lang L]`. */
export async function indexSearchCommand(
  io: CommandIo,
  flags: GlobalFlags,
  query: string,
  options: IndexSearchFlags,
): Promise<number> {
  const k = options.k === undefined ? undefined : Number(options.k);
  if (k !== undefined && (!Number.isInteger(k) || k < 1 || k > 100)) {
    return reportError(
      io,
      new NyzhiError("usage", `-k must be a whole number from 1 to 100, not "${options.k}".`),
    );
  }
  return withIndex(io, flags, async (index) => {
    const results = await index.search(query, {
      ...(k === undefined ? {} : { k }),
      ...(options.path ? { path: options.path } : {}),
      ...(options.lang ? { language: options.lang } : {}),
    });
    if (options.json) {
      io.stdout(`${JSON.stringify(results, null, 2)}\n`);
      return ExitCode.success;
    }
    if (results.length === 0) {
      io.stdout("No results. Try other words, or `nyz index` if the project changed.\n");
      return ExitCode.success;
    }
    io.stdout(results.map(formatResult).join("\n"));
    return ExitCode.success;
  });
}

/** `nyz index clear`: deletes this project's index. */
export async function indexClearCommand(io: CommandIo, flags: GlobalFlags): Promise<number> {
  return withIndex(io, flags, async (index, status) => {
    await index.clear();
    io.stdout(
      status.built
        ? `Deleted the index of ${status.root} (${status.directory}).\n`
        : `${status.root} had no index.\n`,
    );
    return ExitCode.success;
  });
}

async function withIndex(
  io: CommandIo,
  flags: GlobalFlags,
  task: (index: CodeIndex, status: IndexStatus) => Promise<number>,
): Promise<number> {
  let index: CodeIndex | undefined;
  try {
    const { config, projectRoot } = await loadCliConfig(io, flags);
    index = createIndex({ root: projectRoot, env: io.env, config, getKey: embeddingKeyLookup(io, config) });
    return await task(index, await index.status());
  } catch (error) {
    return reportError(io, error);
  } finally {
    await index?.close();
  }
}

/**
 * API keys for the embeddings providers from the credential chain (config `api_key`, the
 * environment, the store). OAuth tokens are never used: a chat subscription's token is no
 * embeddings key.
 */
function embeddingKeyLookup(io: CommandIo, config: NyzhiConfig): GetEmbeddingKey {
  let store: Promise<CredentialStore | undefined> | undefined;
  return async (provider) => {
    store ??= openCredentialStore({ env: io.env }).then(
      (opened) => opened.store,
      () => undefined,
    );
    const opened = await store;
    const entry = config.provider[provider];
    const credential = await resolveCredential(provider, {
      configApiKey: typeof entry === "object" ? entry.api_key : undefined,
      env: io.env,
      ...(opened ? { store: opened } : {}),
      refresh: false,
    });
    return credential?.type === "api-key" ? credential.key : undefined;
  };
}

function formatStatus(status: IndexStatus): string {
  const lines = [`Index of ${status.root}`];
  if (!status.built) {
    lines.push("  not built yet: run `nyz index`");
  } else {
    lines.push(`  files       ${status.files.toLocaleString("en-US")}`);
    lines.push(`  chunks      ${status.chunks.toLocaleString("en-US")}`);
    lines.push(
      `  built with  ${status.builtWith === "none" ? "no embedder (full-text search)" : status.builtWith}`,
    );
    lines.push(
      `  updated     ${status.updatedAt ?? "never"}${status.complete ? "" : " (stopped before the end: run `nyz index` to go on)"}`,
    );
  }
  lines.push(`  embedder    ${status.embedder}: ${status.reason}`);
  lines.push(`  location    ${status.directory}`);
  if (status.warning) lines.push(`Warning: ${status.warning}`);
  if (status.rebuildPending)
    lines.push(
      "The embedder changed: the next `nyz index` rebuilds the index (the current one serves searches meanwhile).",
    );
  return `${lines.join("\n")}\n`;
}

function formatResult(result: SearchResult, position: number): string {
  const symbol = result.symbol ? `  ${result.symbol}` : "";
  const header = `${position + 1}. ${result.path}:${result.startLine}-${result.endLine}${symbol}  (${result.language}, score ${result.score.toFixed(4)})`;
  const snippet = result.snippet
    .split("\n")
    .slice(0, 8)
    .map((line) => `   ${line}`)
    .join("\n");
  return `${header}\n${snippet}\n`;
}
