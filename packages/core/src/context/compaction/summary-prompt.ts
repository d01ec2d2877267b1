import type { ModelMessage } from "@nyzhi/provider";
import { truncateEnd } from "../../tools/truncate-text.js";

/** Prefix of the user message that carries a compaction summary. */
export const SUMMARY_PREFIX = "[Conversation summary]\n";

/** Per-message caps in the transcript sent for summarising, in characters. */
const USER_TEXT_CHARS = 3000;
const ASSISTANT_TEXT_CHARS = 2000;
const TOOL_INPUT_CHARS = 300;
const TOOL_RESULT_CHARS = 500;

export const SUMMARISER_SYSTEM = [
  "You summarise a coding session between a user and an AI coding agent so the agent can continue",
  "the work from the summary alone. Be specific: keep file paths, function names, commands, error",
  "messages and decisions verbatim. Do not invent anything that is not in the transcript.",
].join(" ");

const SECTIONS = [
  "1. Primary request and intent — everything the user asked for, in detail, including later changes of mind.",
  "2. Key technical decisions — choices made and why (libraries, designs, conventions).",
  "3. Files and code — each file read, created or changed, with why and the important snippets or signatures.",
  "4. Errors and fixes — every error met and how it was fixed, including user feedback on mistakes.",
  "5. Problem solving — what was tried, what worked, open questions.",
  "6. Current state — what is done and what state the work is in right now.",
  "7. Pending tasks — what the user asked for that is not done yet.",
  "8. Next step — the very next action, tied to the most recent request; quote the latest instruction.",
];

export interface SummaryPromptOptions {
  /** The summary of an earlier compaction, to be updated rather than lost. */
  previousSummary?: string | undefined;
  /** `agent.compact_instructions`: what the user wants kept. */
  instructions?: string | undefined;
  /** Estimated tokens of the part being summarised, for the stats line. */
  estimatedTokens: number;
}

/** The user message asking for the eight-section summary of `messages`. */
export function buildSummaryPrompt(messages: readonly ModelMessage[], options: SummaryPromptOptions): string {
  const parts = [
    "Summarise the conversation transcript below. Write exactly these eight sections as Markdown headings:",
    SECTIONS.join("\n"),
  ];
  if (options.previousSummary?.trim()) {
    parts.push(
      "The conversation was compacted before. Here is the previous summary; merge it with the new transcript so nothing in it is lost:",
      `<previous-summary>\n${options.previousSummary.trim()}\n</previous-summary>`,
    );
  }
  if (options.instructions?.trim()) parts.push(`Additional instructions:\n${options.instructions.trim()}`);
  parts.push(`Stats: ${messages.length} messages, about ${options.estimatedTokens} tokens.`);
  parts.push(`<transcript>\n${renderTranscript(messages)}\n</transcript>`);
  return parts.join("\n\n");
}

/** The messages as plain text: long texts cut, tool calls as `[tool:name] input`, results short. */
export function renderTranscript(messages: readonly ModelMessage[]): string {
  return messages.map(renderMessage).join("\n\n");
}

function renderMessage(message: ModelMessage): string {
  if (message.role === "tool") {
    const lines = message.content.map((part) => {
      const label = part.isError ? "error" : "result";
      return `[${label}:${part.toolName}] ${cut(part.output, TOOL_RESULT_CHARS)}`;
    });
    return `## Tool results\n${lines.join("\n")}`;
  }
  const limit = message.role === "user" ? USER_TEXT_CHARS : ASSISTANT_TEXT_CHARS;
  const heading = message.role === "user" ? "## User" : "## Assistant";
  if (typeof message.content === "string") return `${heading}\n${cut(message.content, limit)}`;
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") lines.push(cut(part.text, limit));
    else if (part.type === "image") lines.push("[image]");
    else if (part.type === "tool-call") {
      lines.push(`[tool:${part.name}] ${cut(JSON.stringify(part.input ?? {}) ?? "{}", TOOL_INPUT_CHARS)}`);
    }
  }
  return `${heading}\n${lines.join("\n")}`;
}

function cut(text: string, limit: number): string {
  return truncateEnd(text.trim(), limit, " … [cut]");
}

/** The text of a summary message made by an earlier compaction, without prefix and history pointer. */
export function previousSummaryOf(message: ModelMessage | undefined): string | undefined {
  if (message?.role !== "user" || typeof message.content !== "string") return undefined;
  if (!message.content.startsWith(SUMMARY_PREFIX)) return undefined;
  return message.content.slice(SUMMARY_PREFIX.length).replace(/\n\(full history: [^\n]*\)$/, "");
}

/** The user message that starts a compacted thread. */
export function summaryMessage(summary: string, historyPath: string): ModelMessage {
  return { role: "user", content: `${SUMMARY_PREFIX}${summary.trim()}\n(full history: ${historyPath})` };
}
