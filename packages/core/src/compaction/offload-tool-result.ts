import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureContextIgnored } from "./context-dirs.js";

/** Tool outputs of at least this many characters are written to a file instead of the thread. */
export const DEFAULT_OFFLOAD_THRESHOLD_CHARS = 4000;

/**
 * The threshold for subagents' answers (`wait`, `task`): they are the distilled findings the
 * parent delegated for, so several whole answers stay in the thread; only an answer beyond this
 * (the tool's own 50,000-character cap is next) goes to a file.
 */
export const SUBAGENT_ANSWER_OFFLOAD_CHARS = 40_000;

/** Tools whose output is subagents' answers. */
const SUBAGENT_ANSWER_TOOLS: ReadonlySet<string> = new Set(["wait", "task"]);

/** The offload threshold for a tool's output. */
export function offloadThresholdFor(toolName: string): number {
  return SUBAGENT_ANSWER_TOOLS.has(toolName)
    ? SUBAGENT_ANSWER_OFFLOAD_CHARS
    : DEFAULT_OFFLOAD_THRESHOLD_CHARS;
}

export interface OffloadOptions {
  /** Directory for the files, usually `contextDirs(root).toolResults`; created when missing. */
  dir: string;
  /** Default `DEFAULT_OFFLOAD_THRESHOLD_CHARS` (characters, UTF-16 code units). */
  thresholdChars?: number;
  /** Part of the file name, e.g. `bash`. Default `tool`. */
  toolName?: string;
  /** Keeps names unique when calls finish in the same millisecond. Default: random. */
  callId?: string;
  /** Clock for the file name (tests). */
  now?: Date;
}

export interface OffloadResult {
  /** What goes into the thread: the result itself, or a pointer to the file. */
  output: string;
  /** The file written; undefined when the result was small enough to keep. */
  path: string | undefined;
}

/**
 * Keeps a large tool output out of the conversation: writes it to
 * `<dir>/<YYYYmmdd_HHMMSS_mmm>-<tool>-<id>.txt` and returns a one-line pointer the model can
 * follow with `read` or `tail_file`. Smaller outputs come back unchanged.
 */
export async function offloadLargeToolResult(
  result: string,
  options: OffloadOptions,
): Promise<OffloadResult> {
  const threshold = options.thresholdChars ?? DEFAULT_OFFLOAD_THRESHOLD_CHARS;
  if (result.length < threshold) return { output: result, path: undefined };
  const name = [
    timestamp(options.now ?? new Date()),
    safeName(options.toolName ?? "tool"),
    options.callId ? safeName(options.callId) : randomBytes(3).toString("hex"),
  ].join("-");
  await ensureContextIgnored(options.dir);
  // Synchronous: a tool output is small, and two thread-pool round trips cost more than the write.
  mkdirSync(options.dir, { recursive: true });
  const path = join(options.dir, `${name}.txt`);
  writeFileSync(path, result, "utf8");
  return { output: offloadPointer(path, result), path };
}

/** The text that stands in for an offloaded output. */
export function offloadPointer(path: string, result: string): string {
  const lines = result === "" ? 0 : result.replace(/\n$/, "").split("\n").length;
  return `[Output written to ${path} (${lines} lines, ${result.length} chars). Use read or tail_file to inspect.]`;
}

function timestamp(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}_` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}_${pad(date.getMilliseconds(), 3)}`
  );
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "x";
}
