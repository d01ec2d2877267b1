import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import {
  GREP_MAX_FILE_BYTES,
  type GrepMatch,
  type GrepSearchOptions,
  type GrepSearchResult,
} from "./grep-search-types.js";

let available: Promise<boolean> | undefined;

/** Whether `rg` can be run (checked once per process, or learnt from the first search). */
export function ripgrepAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    const child = spawn("rg", ["--version"], { stdio: "ignore" });
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
  return available;
}

/** ripgrep failed before searching anything (e.g. a pattern Rust's regex syntax rejects). */
export class RipgrepUnusableError extends Error {}

/** `rg` is not installed: the search could not start. Later calls know without trying again. */
export class RipgrepMissingError extends RipgrepUnusableError {}

/** True once a search found no `rg` to run. */
export function ripgrepKnownMissing(): boolean {
  return missing;
}

let missing = false;

/**
 * Runs `rg --json --sort path` with flags that make its file selection match the JS walker:
 * hidden files skipped, node_modules skipped, .gitignore/.ignore/.rgignore honoured even outside a
 * git repo, no global or per-repo exclude files, files over 10 MiB skipped. Files with a NUL byte
 * anywhere are dropped (ripgrep would only stop at the NUL). Reads rg's output as it streams and
 * kills rg once more than `maxMatches` matches are in, so memory stays bounded whatever the input.
 */
export async function searchWithRipgrep(options: GrepSearchOptions): Promise<GrepSearchResult> {
  const args = [
    "--json",
    "--no-config",
    "--sort",
    "path",
    "--no-require-git",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--max-filesize",
    String(GREP_MAX_FILE_BYTES),
    "--glob",
    "!node_modules",
  ];
  if (options.caseInsensitive) args.push("--ignore-case");
  if (options.include && !options.targetIsFile) args.push("--glob", options.include);
  args.push("--regexp", options.pattern, "--");
  const cwd = options.targetIsFile ? dirname(options.target) : options.target;
  if (options.targetIsFile) args.push(basename(options.target));
  options.signal?.throwIfAborted();
  const child = spawn("rg", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const onAbort = () => child.kill();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    // Only the start is shown (a rejected pattern); thousands of unreadable files need no more.
    if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) => {
      // spawn also says ENOENT when the working directory is gone; only a missing rg counts.
      if (error.code !== "ENOENT" || !existsSync(cwd)) return reject(error);
      missing = true;
      available = Promise.resolve(false);
      reject(new RipgrepMissingError("rg is not installed"));
    });
    child.on("close", (code) => resolve(code));
  });
  // Awaited after the output is read; until then a spawn failure must not count as unhandled.
  exit.catch(() => {});
  const matches: GrepMatch[] = [];
  let fileMatches: GrepMatch[] = [];
  // The current file holds a NUL byte: the rest of its matches are dropped as they come.
  let skippingFile = false;
  let sawFile = false;
  let truncated = false;
  // Lines are split by hand: readline's async iterator costs a promise per line, more than the
  // parsing itself for a few hundred matches.
  const handle = async (line: string): Promise<boolean> => {
    // Matches past the cap in a file already known to be dropped are not even parsed.
    if (skippingFile && line.startsWith('{"type":"match"')) return true;
    const event = JSON.parse(line) as RipgrepEvent;
    if (event.type === "begin") {
      sawFile = true;
      fileMatches = [];
      skippingFile = false;
    } else if (event.type === "match") {
      if (skippingFile) return true;
      fileMatches.push({
        path: join(cwd, decode(event.data.path)),
        line: event.data.line_number,
        text: stripLineEnding(decode(event.data.lines)),
      });
      // Enough matches held: decide now rather than at the file's end, so one file with millions
      // of matching lines is never held in memory.
      if (matches.length + fileMatches.length > options.maxMatches) return keepFileMatches();
    } else if (event.type === "end" && fileMatches.length > 0) {
      return keepFileMatches();
    }
    return true;
  };
  /** Adds the current file's matches unless the file has a NUL byte; false once the cap is passed. */
  const keepFileMatches = async (): Promise<boolean> => {
    const held = fileMatches;
    fileMatches = [];
    if (await containsNul(held[0]!.path)) {
      skippingFile = true;
      return true;
    }
    for (const match of held) matches.push(match);
    if (matches.length <= options.maxMatches) return true;
    truncated = true;
    child.kill();
    return false;
  };
  try {
    let rest = "";
    // setEncoding decodes across chunk boundaries, so a character split between reads survives.
    child.stdout.setEncoding("utf8");
    reading: for await (const chunk of child.stdout as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        const line = text.slice(start, end);
        start = end + 1;
        if (line !== "" && !(await handle(line))) break reading;
      }
      rest = text.slice(start);
    }
    // After an abort killed rg, its last line may be cut off: it is not parsed.
    if (!truncated && !options.signal?.aborted && rest.trim() !== "") await handle(rest);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  const code = await exit;
  options.signal?.throwIfAborted();
  if (!truncated && code === 2 && !sawFile) throw new RipgrepUnusableError(stderr.trim() || "rg failed");
  return { matches: matches.slice(0, options.maxMatches), truncated };
}

type RipgrepText = { text: string } | { bytes: string };

type RipgrepEvent =
  | { type: "begin"; data: { path: RipgrepText } }
  | { type: "match"; data: { path: RipgrepText; lines: RipgrepText; line_number: number } }
  | { type: "end"; data: { path: RipgrepText } }
  | { type: "context" | "summary"; data: unknown };

function decode(value: RipgrepText): string {
  return "text" in value ? value.text : Buffer.from(value.bytes, "base64").toString("utf8");
}

function stripLineEnding(text: string): string {
  const withoutNewline = text.endsWith("\n") ? text.slice(0, -1) : text;
  return withoutNewline.endsWith("\r") ? withoutNewline.slice(0, -1) : withoutNewline;
}

async function containsNul(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) return false;
      if (buffer.subarray(0, bytesRead).includes(0)) return true;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
