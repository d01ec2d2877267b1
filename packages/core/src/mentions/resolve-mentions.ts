import type { Stats } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { compareText, errorMessage } from "@nyzhi/config";
import { findMentions } from "./find-mentions.js";
import { imageMediaType, type ReadImage, readImage } from "./image-attachments.js";

/** Files larger than this (bytes) are cut at the last whole line before it, with a note. */
export const MAX_MENTION_FILE_BYTES = 100 * 1024;
/** A folder's listing stops after this many entries. */
export const MAX_MENTION_ENTRIES = 200;
/** Folders a listing skips besides dot folders: dependencies and build outputs. */
export const SKIPPED_FOLDERS = new Set([
  "node_modules",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  "__pycache__",
]);

/** What one `@path` attached (shown as a chip; the model gets the content). */
export type Attachment =
  | { kind: "file"; path: string; lines: number; bytes: number; truncated: boolean }
  | { kind: "directory"; path: string; entries: number; truncated: boolean }
  | { kind: "image"; path: string; mediaType: string; bytes: number };

/** A mention that names a file or folder which may not be read, and why. */
export interface RefusedMention {
  path: string;
  reason: string;
}

export interface MentionSources {
  projectRoot: string;
  cwd: string;
  /** `~` expands to this. */
  home: string;
  /**
   * Why reading `absolutePath` is refused (the session's deny rules and sandbox); undefined when
   * it may be read.
   */
  refusal(absolutePath: string): Promise<string | undefined>;
}

export interface ResolvedMentions {
  attachments: Attachment[];
  refused: RefusedMention[];
  /** `<file …>` and `<directory …>` elements, in mention order. */
  blocks: string[];
  /** Images named by `@path`, in mention order. */
  images: ReadImage[];
}

/**
 * Resolves the message's `@path` mentions (project root first, then the working directory; `~`
 * expanded): a file's content, a folder's listing, an image. Paths that exist nowhere stay plain
 * text (`@someone`); refused ones are reported, never read.
 */
export async function resolveMentions(text: string, sources: MentionSources): Promise<ResolvedMentions> {
  const resolved: ResolvedMentions = { attachments: [], refused: [], blocks: [], images: [] };
  for (const mention of findMentions(text)) {
    const found = await locate(mention.path, sources);
    if (!found) continue;
    const shown = displayPath(found.path, sources);
    const reason = await sources.refusal(found.path);
    if (reason !== undefined) {
      resolved.refused.push({ path: shown, reason });
      continue;
    }
    try {
      if (found.stats.isDirectory()) {
        const listing = await listFolder(found.path);
        const more = listing.truncated ? `\n[listing stopped at ${MAX_MENTION_ENTRIES} entries]` : "";
        resolved.blocks.push(`<directory path="${shown}">\n${listing.lines.join("\n")}${more}\n</directory>`);
        resolved.attachments.push({
          kind: "directory",
          path: shown,
          entries: listing.lines.length,
          truncated: listing.truncated,
        });
      } else if (imageMediaType(found.path)) {
        const image = await readImage({ path: found.path });
        resolved.images.push(image);
        resolved.attachments.push({
          kind: "image",
          path: shown,
          mediaType: image.part.mediaType,
          bytes: image.bytes,
        });
      } else {
        const file = await readTextFile(found.path, found.stats.size);
        if (file === undefined) {
          resolved.refused.push({ path: shown, reason: "it is a binary file" });
          continue;
        }
        resolved.blocks.push(`<file path="${shown}" lines="${file.lines}">\n${file.text}\n</file>`);
        resolved.attachments.push({
          kind: "file",
          path: shown,
          lines: file.lines,
          bytes: found.stats.size,
          truncated: file.truncated,
        });
      }
    } catch (error) {
      resolved.refused.push({ path: shown, reason: `could not read it: ${errorMessage(error)}` });
    }
  }
  return resolved;
}

/** The `<context>` block the model gets before the typed text; undefined without blocks. */
export function contextBlock(blocks: readonly string[]): string | undefined {
  if (blocks.length === 0) return undefined;
  return `<context>\n${blocks.join("\n")}\n</context>`;
}

async function locate(
  path: string,
  sources: MentionSources,
): Promise<{ path: string; stats: Stats } | undefined> {
  const expanded = path === "~" || path.startsWith("~/") ? join(sources.home, path.slice(1)) : path;
  const candidates = isAbsolute(expanded)
    ? [expanded]
    : [join(sources.projectRoot, expanded), join(sources.cwd, expanded)];
  for (const candidate of candidates) {
    const stats = await stat(candidate).catch(() => undefined);
    if (stats && (stats.isFile() || stats.isDirectory())) return { path: candidate, stats };
  }
  return undefined;
}

/** Relative to the project root when inside it, `~/…` under the home folder, else absolute. */
function displayPath(path: string, sources: MentionSources): string {
  const inProject = relative(sources.projectRoot, path);
  if (inProject === "") return ".";
  if (!inProject.startsWith("..") && !isAbsolute(inProject)) return inProject.split(sep).join("/");
  const inHome = relative(sources.home, path);
  if (!inHome.startsWith("..") && !isAbsolute(inHome)) return `~/${inHome.split(sep).join("/")}`;
  return path;
}

async function readTextFile(
  path: string,
  size: number,
): Promise<{ text: string; lines: number; truncated: boolean } | undefined> {
  const handle = await open(path, "r");
  let bytes: Buffer;
  try {
    const length = Math.min(size, MAX_MENTION_FILE_BYTES);
    bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, 0);
  } finally {
    await handle.close();
  }
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  const truncated = size > MAX_MENTION_FILE_BYTES;
  let text = bytes.toString("utf8");
  if (truncated) {
    const lastLine = text.lastIndexOf("\n");
    if (lastLine > 0) text = text.slice(0, lastLine);
  }
  text = text.replace(/\n$/, "");
  const lines = text === "" ? 0 : text.split("\n").length;
  if (truncated) {
    text += `\n[truncated: the file has ${size} bytes; only its first ${lines} lines (up to ${MAX_MENTION_FILE_BYTES / 1024} KB) are shown — read the rest with the read tool]`;
  }
  return { text, lines, truncated };
}

/**
 * The folder's entries, depth first and sorted (folders end in `/`), at most
 * `MAX_MENTION_ENTRIES`; dot folders, dependencies and build outputs are skipped.
 */
async function listFolder(root: string): Promise<{ lines: string[]; truncated: boolean }> {
  const lines: string[] = [];
  const visit = async (folder: string, prefix: string): Promise<boolean> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    entries.sort((left, right) => compareText(left.name, right.name));
    for (const entry of entries) {
      const isFolder = entry.isDirectory();
      if (isFolder && (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name))) continue;
      if (lines.length >= MAX_MENTION_ENTRIES) return false;
      lines.push(`${prefix}${entry.name}${isFolder ? "/" : ""}`);
      if (isFolder && !(await visit(join(folder, entry.name), `${prefix}${entry.name}/`))) return false;
    }
    return true;
  };
  const complete = await visit(root, "");
  return { lines, truncated: !complete };
}
