import { nestUnderHeading } from "./nest-under-heading.js";
import { BRIEFING_LIMITS, type SharedContext } from "./shared-context.js";

/**
 * Renders the shared context as Markdown for a child's system prompt. Sections appear only when
 * they have content, each followed by a blank line: `## Recent File Changes` (numbered, first 20,
 * then `... and N more`), `## Active Todos` (`- [id] content`), `## Recent Conversation` (first 5),
 * `## Project Memory` (first 20 lines, without the memory index's own `# Project Memory` title and
 * with its headings nested below the section's). The whole is cut to 60 lines. Nothing to say
 * gives "".
 */
export function buildBriefing(shared: SharedContext): string {
  const lines: string[] = [];
  const { recentChanges, activeTodos, conversationSummary } = shared;
  if (recentChanges.length > 0) {
    lines.push("## Recent File Changes");
    for (const [index, path] of recentChanges.slice(0, BRIEFING_LIMITS.changeEntries).entries()) {
      lines.push(`${index + 1}. ${path}`);
    }
    const more = recentChanges.length - BRIEFING_LIMITS.changeEntries;
    if (more > 0) lines.push(`... and ${more} more`);
    lines.push("");
  }
  if (activeTodos.length > 0) {
    lines.push("## Active Todos");
    for (const todo of activeTodos) lines.push(`- [${todo.id}] ${oneLine(todo.content)}`);
    lines.push("");
  }
  if (conversationSummary.length > 0) {
    lines.push("## Recent Conversation");
    for (const message of conversationSummary.slice(0, BRIEFING_LIMITS.messages)) {
      lines.push(`- ${oneLine(message)}`);
    }
    lines.push("");
  }
  const memory = nestUnderHeading(shared.projectMemory ?? "", 2).trim();
  if (memory) {
    lines.push("## Project Memory", ...memory.split("\n").slice(0, BRIEFING_LIMITS.memoryLines), "");
  }
  const kept = lines.slice(0, BRIEFING_LIMITS.totalLines);
  while (kept.length > 0 && kept.at(-1)!.trim() === "") kept.pop();
  return kept.join("\n");
}

/** Keeps an entry on one line so the line caps mean what they say. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
