import { filterCommands, type SlashCommand } from "../commands/command-registry.js";
import { fuzzyFilter } from "../fuzzy/fuzzy-match.js";
import type { TextBuffer } from "./text-buffer.js";

/** Candidates kept for a popup. */
export const MAX_COMPLETIONS = 50;

/** Project files for `@` completion: a list, or a function that searches for a query. */
export type FileSource = readonly string[] | ((query: string) => readonly string[]);

export interface CompletionCandidate {
  /** The text put in place of `[start, end)`. */
  value: string;
  label: string;
  description?: string | undefined;
}

/** An open completion popup: what it replaces, its candidates and the highlighted one. */
export interface CompletionState {
  kind: "command" | "file";
  /** The replaced range of the text (the `/name` or `@path` being typed). */
  start: number;
  end: number;
  candidates: CompletionCandidate[];
  selected: number;
}

export interface CompletionSources {
  commands?: readonly SlashCommand<unknown>[] | undefined;
  files?: FileSource | undefined;
}

function commandCompletion(
  buffer: TextBuffer,
  commands: readonly SlashCommand<unknown>[],
): CompletionState | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  const start = before.length - before.trimStart().length;
  if (before[start] !== "/" || /\s/.test(before.slice(start))) return undefined;
  const query = before.slice(start + 1);
  const end = start + 1 + query.length + (/^\S*/.exec(buffer.text.slice(buffer.cursor))?.[0].length ?? 0);
  const typed = buffer.text.slice(start + 1, end).toLowerCase();
  const matches = filterCommands(commands, query, MAX_COMPLETIONS);
  // A name typed out in full needs no popup: Enter runs it.
  if (matches.some((match) => match.item.name.toLowerCase() === typed)) return undefined;
  if (matches.length === 0) return undefined;
  return {
    kind: "command",
    start,
    end,
    selected: 0,
    candidates: matches.map(({ item }) => ({
      value: `/${item.name}`,
      label: `/${item.name}${item.args ? ` ${item.args}` : ""}`,
      description: item.description,
    })),
  };
}

function fileCompletion(buffer: TextBuffer, files: FileSource): CompletionState | undefined {
  const before = buffer.text.slice(0, buffer.cursor);
  // The last `@` at a word start (so `me@example.com` is left alone), followed by path characters.
  const match = /(^|[\s([{"'])@([^\s@]*)$/u.exec(before);
  if (!match) return undefined;
  const query = match[2]!;
  const start = before.length - query.length - 1;
  const found =
    typeof files === "function"
      ? files(query).slice(0, MAX_COMPLETIONS)
      : fuzzyFilter(files, query, (file) => file, MAX_COMPLETIONS).map((result) => result.item);
  if (found.length === 0 || (found.length === 1 && found[0] === query)) return undefined;
  return {
    kind: "file",
    start,
    end: buffer.cursor,
    selected: 0,
    candidates: found.map((file) => ({ value: `@${file}`, label: file })),
  };
}

/** The completion the text before the cursor asks for: `/command` at the start, or `@path`. */
export function detectCompletion(
  buffer: TextBuffer,
  sources: CompletionSources,
): CompletionState | undefined {
  if (sources.commands && sources.commands.length > 0) {
    const command = commandCompletion(buffer, sources.commands);
    if (command) return command;
  }
  return sources.files ? fileCompletion(buffer, sources.files) : undefined;
}

/**
 * Puts the highlighted candidate in place of what was typed. A command or file is followed by a
 * space; a directory (ending in `/`) is not, so completion continues inside it.
 */
export function applyCompletion(buffer: TextBuffer, completion: CompletionState): TextBuffer {
  const candidate = completion.candidates[completion.selected];
  if (!candidate) return buffer;
  const after = buffer.text.slice(completion.end);
  const spacer = candidate.value.endsWith("/") || after.startsWith(" ") ? "" : " ";
  const inserted = candidate.value + spacer;
  return {
    text: buffer.text.slice(0, completion.start) + inserted + after,
    cursor: completion.start + inserted.length,
  };
}
