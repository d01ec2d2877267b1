import type { TranscriptItem } from "../transcript/transcript-types.js";

/** One place in the transcript where the searched text occurs. */
export interface SearchMatch {
  itemId: string;
  /** Who said it: you, the assistant (or an agent), a tool, a notice. */
  source: string;
  /** The line that holds the match, cut around it. */
  excerpt: string;
}

/** What a search shows: the text, its matches (oldest first) and the one shown now. */
export interface TranscriptSearch {
  query: string;
  matches: readonly SearchMatch[];
  current: number;
}

const EXCERPT_CHARS = 160;

function searchableText(item: TranscriptItem): { source: string; text: string } | undefined {
  switch (item.kind) {
    case "user":
      return { source: "you", text: item.text };
    case "assistant":
      return {
        source: item.agent.depth > 0 ? (item.agent.nickname ?? item.agent.agentId) : "assistant",
        text: item.text,
      };
    case "tool":
      return { source: `tool ${item.name}`, text: `${item.summary}\n${item.output}` };
    case "notice":
      return { source: "notice", text: item.message };
    case "error":
      return { source: "error", text: item.message };
    default:
      return undefined;
  }
}

function excerptOf(line: string, at: number, length: number): string {
  const start = Math.max(
    0,
    Math.min(at - Math.floor((EXCERPT_CHARS - length) / 2), line.length - EXCERPT_CHARS),
  );
  const cut = line.slice(start, start + EXCERPT_CHARS).trim();
  return `${start > 0 ? "…" : ""}${cut}${start + EXCERPT_CHARS < line.length ? "…" : ""}`;
}

/**
 * `/search <text>`: every line of the transcript (your prompts, answers, tool rows, notices) that
 * holds `query`, case-insensitively, oldest first; a search's own notices are left out.
 */
export function searchTranscript(items: readonly TranscriptItem[], query: string): SearchMatch[] {
  const needle = query.toLowerCase();
  if (needle === "") return [];
  const matches: SearchMatch[] = [];
  for (const item of items) {
    const found = searchableText(item);
    if (!found) continue;
    for (const line of found.text.split("\n")) {
      const at = line.toLowerCase().indexOf(needle);
      if (at < 0) continue;
      if (found.source === "you" && line.trim().toLowerCase().startsWith("/search")) continue;
      matches.push({ itemId: item.id, source: found.source, excerpt: excerptOf(line, at, needle.length) });
    }
  }
  return matches;
}
