import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { NyzhiError, withFileLock, writeFileAtomic } from "@nyzhi/config";
import { MEMORY_INDEX_FILE } from "./memory-paths.js";

/** What a new project index starts with; topic lines go below `## Topics`. */
export const MEMORY_INDEX_HEADER = "# Project Memory\n\nAuto-managed memory index.\n\n## Topics\n";
export const NO_PROJECT_MEMORIES = "No project memories yet.";
/** Longest topic name kept, in characters. */
const MAX_TOPIC_LENGTH = 64;
/** Longest summary written beside a topic in the index, in code points. */
const MAX_SUMMARY_LENGTH = 100;

export type MemoryWriteMode = "append" | "replace";

/** A topic name the store cannot use (empty, or the index's own name). */
export class MemoryTopicError extends NyzhiError {
  constructor(message: string) {
    super("memory_topic_invalid", message);
  }
}

/**
 * A topic's file name without `.md`: letters, digits, `-` and `_` kept and lower-cased, everything
 * else becomes `-` (a trailing `.md` is dropped first). Throws for names that end up empty or that
 * would collide with the index (`memory`, which is `MEMORY.md` on case-insensitive file systems).
 */
export function sanitizeTopicName(topic: string): string {
  const safe = topic
    .trim()
    .replace(/\.md$/i, "")
    .replace(/[^A-Za-z0-9_-]/g, "-")
    .toLowerCase()
    .slice(0, MAX_TOPIC_LENGTH);
  if (!/[a-z0-9]/.test(safe))
    throw new MemoryTopicError(`Invalid topic name '${topic}': use letters and digits.`);
  if (safe === "memory") {
    throw new MemoryTopicError(
      "The topic name 'memory' is reserved for the index (MEMORY.md); pick a specific topic.",
    );
  }
  return safe;
}

/** The index text, or `No project memories yet.` when there is none. */
export async function readMemoryIndex(dir: string): Promise<string> {
  const text = await readIfExists(join(dir, MEMORY_INDEX_FILE));
  return text?.trim() ? text : NO_PROJECT_MEMORIES;
}

/** Topic names (file names without `.md`), sorted; the index is not a topic. */
export async function listMemoryTopics(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.endsWith(".md") && entry !== MEMORY_INDEX_FILE && !entry.startsWith("."))
    .map((entry) => entry.slice(0, -3))
    .sort();
}

/** A topic's content; throws a MemoryTopicError naming the path and the topics there are. */
export async function readMemoryTopic(dir: string, topic: string): Promise<string> {
  const safe = sanitizeTopicName(topic);
  const path = join(dir, `${safe}.md`);
  const text = await readIfExists(path);
  if (text !== undefined) return text;
  const topics = await listMemoryTopics(dir);
  const available = topics.length > 0 ? topics.join(", ") : "(none)";
  throw new MemoryTopicError(`Topic '${topic}' not found at ${path}. Available topics: ${available}`);
}

/** Serialises writes to one memory folder within this process (the index is read-modify-write). */
const folderQueues = new Map<string, Promise<unknown>>();

/**
 * Writes a topic atomically — `replace` (or a new topic) writes `content`, `append` adds a newline
 * and `content` — then updates the topic's line in the index (`- [topic](topic.md): first line`),
 * creating the index when missing. Returns the topic's file path and its new line count.
 */
export async function writeMemoryTopic(
  dir: string,
  topic: string,
  content: string,
  mode: MemoryWriteMode,
): Promise<{ path: string; topic: string; lines: number; created: boolean }> {
  const safe = sanitizeTopicName(topic);
  const run = async () => {
    const path = join(dir, `${safe}.md`);
    const previous = await readIfExists(path);
    const body = content.replace(/\s+$/, "");
    const next =
      mode === "replace" || previous === undefined || previous.trim() === ""
        ? `${body}\n`
        : `${previous.replace(/\n*$/, "")}\n${body}\n`;
    await writeFileAtomic(path, next);
    await updateIndex(dir, safe, next);
    return { path, topic: safe, lines: next.split("\n").length - 1, created: previous === undefined };
  };
  // Across processes too: another `nyz` writing this folder waits for the lock (a hidden file the
  // topic listing skips), so neither loses the other's lines or index entry.
  const locked = () => withFileLock(join(dir, ".memory.lock"), run);
  const queued = (folderQueues.get(dir) ?? Promise.resolve()).then(locked, locked);
  folderQueues.set(dir, queued);
  try {
    return await queued;
  } finally {
    if (folderQueues.get(dir) === queued) folderQueues.delete(dir);
  }
}

async function updateIndex(dir: string, topic: string, content: string): Promise<void> {
  const indexPath = join(dir, MEMORY_INDEX_FILE);
  const index = (await readIfExists(indexPath)) ?? MEMORY_INDEX_HEADER;
  const line = `- [${topic}](${topic}.md)${summaryOf(content)}`;
  const lines = index.replace(/\n*$/, "").split("\n");
  const at = lines.findIndex((existing) => existing.includes(`](${topic}.md)`));
  if (at >= 0) lines[at] = line;
  else lines.push(line);
  await writeFileAtomic(indexPath, `${lines.join("\n")}\n`);
}

function summaryOf(content: string): string {
  const first = content
    .split("\n")
    .map((line) => line.replace(/^[#>*\-\s]+/, "").trim())
    .find((line) => line !== "");
  if (!first) return "";
  const points = Array.from(first);
  return `: ${points.length > MAX_SUMMARY_LENGTH ? `${points.slice(0, MAX_SUMMARY_LENGTH).join("")}…` : first}`;
}

/** Entries recorded: `- ` lines of the given index files plus topic files. */
export async function countMemories(dir: string, userMemoryFile: string): Promise<number> {
  const bullets = async (file: string) =>
    ((await readIfExists(file)) ?? "").split("\n").filter((line) => line.startsWith("- ")).length;
  return (
    (await bullets(userMemoryFile)) +
    (await bullets(join(dir, MEMORY_INDEX_FILE))) +
    (await listMemoryTopics(dir)).length
  );
}

/** Removes the project's memory folder (`/memory clear`). */
export async function clearProjectMemory(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}
