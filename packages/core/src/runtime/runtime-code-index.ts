import type { NyzhiConfig } from "@nyzhi/config";
import type { ModelMessage } from "@nyzhi/provider";
import type { ChangeTracker } from "../changes/change-tracker.js";
import { autoContextFragment } from "../code-index/auto-context.js";
import { CodeIndexService } from "../code-index/code-index-service.js";
import { indexProcessOpener } from "../code-index/index-process-opener.js";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";
import type { UsageLedger } from "../usage/usage-ledger.js";
import type { CreateAgentRuntimeOptions } from "./agent-runtime-types.js";

/**
 * ms a turn of a read-only (headless) session asked for auto-context (`--auto-context`) waits for
 * the index to open: it opens on that first lookup (its child process starts, LanceDB loads).
 */
const READ_ONLY_AUTO_CONTEXT_WAIT_MS = 10_000;

export interface RuntimeCodeIndex {
  /** The session's index; absent with `index.enabled = false`. */
  codeIndex: CodeIndexService | undefined;
  /** Stops feeding the agents' edits to the index. */
  stopIndexingChanges: (() => void) | undefined;
  /** The `<codebase_context>` fragment of a turn, when auto-context is on. */
  turnContext: ReturnType<typeof autoContextFor> | undefined;
}

/**
 * The session's code index (its activity is an `index-progress` event carrying the session's
 * totals), fed the agents' edits, and the turns' auto-context from it.
 */
export function buildCodeIndex(
  options: Pick<
    CreateAgentRuntimeOptions,
    "config" | "codeIndex" | "indexProcess" | "indexUse" | "autoContext"
  >,
  parts: {
    projectRoot: string;
    env: NodeJS.ProcessEnv;
    lead: AgentTag;
    route: (event: AgentEvent) => void;
    usage: UsageLedger;
    tracker: ChangeTracker;
    canRead: (absolutePath: string) => Promise<boolean>;
  },
): RuntimeCodeIndex {
  const { config } = options;
  const { projectRoot: root, env } = parts;
  const readOnlyIndex = options.indexUse === "read-only";
  const codeIndex =
    options.codeIndex === false
      ? undefined
      : (options.codeIndex ??
        (config.index.enabled
          ? new CodeIndexService({
              root,
              env,
              config,
              readOnly: readOnlyIndex,
              ...(options.indexProcess
                ? { open: indexProcessOpener(options.indexProcess, { root, env, config }) }
                : {}),
              onActivity: (activity) =>
                parts.route({
                  type: "index-progress",
                  agent: parts.lead,
                  ...activity,
                  sessionTotal: parts.usage.totals().session,
                }),
            })
          : undefined));
  if (codeIndex) parts.usage.setEmbedding(() => codeIndex.embeddingUsage());
  const stopIndexingChanges = codeIndex
    ? parts.tracker.onChange((path) => codeIndex.filesChanged([path]))
    : undefined;
  // Read-only (headless) sessions add auto-context only when asked, and then wait for the index
  // to open: nothing opened it before the first turn.
  const autoContext = options.autoContext ?? (readOnlyIndex ? false : config.index.auto_context);
  const turnContext =
    codeIndex && autoContext
      ? autoContextFor(codeIndex, config, {
          canRead: parts.canRead,
          readyMs: readOnlyIndex
            ? Math.max(config.index.auto_context_wait_ms, READ_ONLY_AUTO_CONTEXT_WAIT_MS)
            : config.index.auto_context_wait_ms,
        })
      : undefined;
  return { codeIndex, stopIndexingChanges, turnContext };
}

/**
 * A turn's `<codebase_context>` fragment from the session's index, within `index.auto_context_*`,
 * holding only files `read` could open (`canRead`: the session's path guard).
 */
function autoContextFor(
  codeIndex: CodeIndexService,
  config: NyzhiConfig,
  options: { canRead: (absolutePath: string) => Promise<boolean>; readyMs: number },
) {
  const { canRead } = options;
  return (turn: { input: string; thread: readonly ModelMessage[] }) =>
    autoContextFragment(codeIndex, {
      canRead,
      query: turn.input,
      thread: turn.thread,
      budgetTokens: config.index.auto_context_tokens,
      maxChunks: config.index.auto_context_chunks,
      readyMs: options.readyMs,
    });
}
