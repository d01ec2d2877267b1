import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { errorMessage, getLogger, NyzhiError, withFileLock, writeFileAtomic } from "@nyzhi/config";

/** Entries kept per project; older ones are dropped. */
export const MAX_HISTORY_ENTRIES = 1000;

/** The history file could not be written; names the file. */
export class InputHistoryError extends NyzhiError {
  constructor(path: string, cause: unknown) {
    super("input_history_write_failed", `cannot save the input history to ${path}: ${errorMessage(cause)}`, {
      cause,
    });
  }
}

/**
 * The history file of one project: `<dataDir>/history/<folder name>-<hash of its path>.jsonl`,
 * so two checkouts named alike keep separate histories.
 */
export function projectHistoryPath(dataDir: string, projectRoot: string): string {
  const hash = createHash("sha256").update(projectRoot).digest("hex").slice(0, 12);
  const name = basename(projectRoot).replace(/[^\w.-]/g, "_") || "root";
  return join(dataDir, "history", `${name}-${hash}.jsonl`);
}

/** Appends an entry unless it repeats the last one, keeping the newest `max`. */
export function appendEntry(entries: readonly string[], entry: string, max = MAX_HISTORY_ENTRIES): string[] {
  const next = entries.at(-1) === entry ? [...entries] : [...entries, entry];
  return next.length > max ? next.slice(next.length - max) : next;
}

/** Parses the file: one JSON string per line (so entries keep their newlines); bad lines are skipped. */
function parseEntries(text: string, path: string): string[] {
  const entries: string[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "string") entries.push(value);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  // A torn or hand-edited line: skipping it keeps every other entry.
  if (skipped > 0) getLogger().warn({ path, skipped }, "skipped unreadable input history lines");
  return entries;
}

async function readEntries(path: string): Promise<string[]> {
  try {
    return parseEntries(await readFile(path, "utf8"), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Prompts the user sent in one project, oldest first, persisted to a file. Each `push` re-reads
 * the file under a lock and writes it atomically, so two `nyz` windows in the same project both
 * keep their entries and a crash never truncates the file.
 */
export class InputHistory {
  private constructor(
    readonly path: string,
    private list: string[],
    private readonly max: number,
  ) {}

  /** Reads the history at `path` (empty when the file does not exist yet). */
  static async load(path: string, options: { maxEntries?: number } = {}): Promise<InputHistory> {
    const max = options.maxEntries ?? MAX_HISTORY_ENTRIES;
    const entries = await readEntries(path);
    return new InputHistory(path, entries.slice(Math.max(0, entries.length - max)), max);
  }

  /** Oldest first. */
  get entries(): readonly string[] {
    return this.list;
  }

  /** Adds an entry (blank ones and a repeat of the last are ignored) and saves the file. */
  async push(entry: string): Promise<void> {
    if (entry.trim() === "") return;
    this.list = appendEntry(this.list, entry, this.max);
    try {
      await withFileLock(`${this.path}.lock`, async () => {
        const merged = appendEntry(await readEntries(this.path), entry, this.max);
        await writeFileAtomic(this.path, `${merged.map((line) => JSON.stringify(line)).join("\n")}\n`, {
          mode: 0o600,
        });
        this.list = merged;
      });
    } catch (error) {
      throw new InputHistoryError(this.path, error);
    }
  }
}
