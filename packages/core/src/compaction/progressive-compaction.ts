import type { ModelMessage, ToolCallPart, ToolMessage, ToolResultPart } from "@nyzhi/provider";
import { estimateTokens } from "./estimate-tokens.js";
import { DEFAULT_OFFLOAD_THRESHOLD_CHARS, offloadLargeToolResult } from "./offload-tool-result.js";

/**
 * The cheap compaction steps. Both only rewrite the `output` of tool results, never remove or
 * reorder a message, so calls and results stay paired. Neither changes its input.
 */
export interface ProgressiveStepResult {
  thread: ModelMessage[];
  /** Tool results rewritten. */
  changed: number;
  /** Estimated tokens saved. */
  savedTokens: number;
}

/** The tool whose repeated calls `dedupRepeatedReads` collapses (the built-in `read`). */
const READ_TOOL = "read";

/**
 * Replaces the output of an earlier `read` of a file by a note when the same file was read again
 * later with the same range, or in full. Keys on `file_path`, the built-in read tool's argument.
 */
export function dedupRepeatedReads(thread: readonly ModelMessage[]): ProgressiveStepResult {
  const calls = toolCallsById(thread);
  const reads: { messageIndex: number; partIndex: number; key: ReadKey }[] = [];
  thread.forEach((message, messageIndex) => {
    if (message.role !== "tool") return;
    message.content.forEach((part, partIndex) => {
      const key = readKeyOf(calls.get(part.toolCallId));
      if (key && !part.isError) reads.push({ messageIndex, partIndex, key });
    });
  });
  const superseded = reads.filter((read, index) =>
    reads.slice(index + 1).some((later) => supersedes(later.key, read.key)),
  );
  return rewriteResults(thread, superseded, (part) => {
    const path = readKeyOf(calls.get(part.toolCallId))?.path ?? "";
    const note = `[Earlier read of ${path} — superseded by a later read of the same file]`;
    return note.length < part.output.length ? note : undefined;
  });
}

export interface MicrocompactOptions {
  /** Directory for the files, usually `contextDirs(root).toolResults`. */
  dir: string;
  /** The newest tool results left alone. Default 5. */
  keepRecentResults?: number;
  /** Default `DEFAULT_OFFLOAD_THRESHOLD_CHARS`. */
  thresholdChars?: number;
}

/**
 * Writes large outputs of all but the newest tool results to files and leaves a pointer in their
 * place (the same pointer as `offloadLargeToolResult`).
 */
export async function microcompactToolResults(
  thread: readonly ModelMessage[],
  options: MicrocompactOptions,
): Promise<ProgressiveStepResult> {
  const threshold = options.thresholdChars ?? DEFAULT_OFFLOAD_THRESHOLD_CHARS;
  const positions: ResultPosition[] = [];
  thread.forEach((message, messageIndex) => {
    if (message.role !== "tool") return;
    message.content.forEach((_part, partIndex) => {
      positions.push({ messageIndex, partIndex });
    });
  });
  const older = positions.slice(0, Math.max(0, positions.length - (options.keepRecentResults ?? 5)));
  const replacements = new Map<ToolResultPart, string>();
  for (const position of older) {
    const part = resultAt(thread, position);
    if (part.output.length < threshold) continue;
    const offloaded = await offloadLargeToolResult(part.output, {
      dir: options.dir,
      thresholdChars: threshold,
      toolName: part.toolName,
      callId: part.toolCallId,
    });
    replacements.set(part, offloaded.output);
  }
  return rewriteResults(thread, older, (part) => replacements.get(part));
}

interface ResultPosition {
  messageIndex: number;
  partIndex: number;
}

interface ReadKey {
  path: string;
  range: string | undefined;
}

function readKeyOf(call: ToolCallPart | undefined): ReadKey | undefined {
  if (call?.name !== READ_TOOL || typeof call.input !== "object" || call.input === null) return undefined;
  const input = call.input as Record<string, unknown>;
  if (typeof input.file_path !== "string") return undefined;
  const ranged = input.offset !== undefined || input.limit !== undefined;
  return {
    path: input.file_path,
    range: ranged ? `${String(input.offset ?? "")}:${String(input.limit ?? "")}` : undefined,
  };
}

/** A later read makes an earlier one redundant when it covers at least the same lines. */
function supersedes(later: ReadKey, earlier: ReadKey): boolean {
  return later.path === earlier.path && (later.range === undefined || later.range === earlier.range);
}

function toolCallsById(thread: readonly ModelMessage[]): Map<string, ToolCallPart> {
  const calls = new Map<string, ToolCallPart>();
  for (const message of thread) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "tool-call") calls.set(part.id, part);
  }
  return calls;
}

function resultAt(thread: readonly ModelMessage[], position: ResultPosition): ToolResultPart {
  return (thread[position.messageIndex] as ToolMessage).content[position.partIndex]!;
}

/** Copies the thread, replacing the output of each listed result for which `replace` gives text. */
function rewriteResults(
  thread: readonly ModelMessage[],
  positions: readonly ResultPosition[],
  replace: (part: ToolResultPart) => string | undefined,
): ProgressiveStepResult {
  const next = [...thread];
  let changed = 0;
  for (const position of positions) {
    const message = next[position.messageIndex] as ToolMessage;
    const part = message.content[position.partIndex]!;
    const output = replace(part);
    if (output === undefined || output === part.output) continue;
    const content = [...message.content];
    content[position.partIndex] = { ...part, output };
    next[position.messageIndex] = { ...message, content };
    changed += 1;
  }
  const savedTokens = changed === 0 ? 0 : estimateTokens(undefined, thread) - estimateTokens(undefined, next);
  return { thread: next, changed, savedTokens };
}
