import type { ModelMessage } from "@nyzhi/provider";
import { truncateEnd } from "../tools/seam/truncate-text.js";

/** Prefix of the user message that carries a compaction summary. */
export const SUMMARY_PREFIX = "[Conversation summary]\n";

/**
 * User text in the transcript sent for summarising, in characters. User messages are the source
 * of "everything the user asked for", so they go in whole while all of them fit in
 * `USER_TEXT_BUDGET_CHARS`; past that, the longest are cut first (down to `USER_TEXT_MIN_CHARS`),
 * keeping their head and tail. They were in the thread verbatim already, so this adds nothing a
 * request of that thread did not carry.
 */
export const USER_TEXT_BUDGET_CHARS = 40_000;
const USER_TEXT_MIN_CHARS = 1000;
/** The latest request is kept verbatim after the summary; the summariser sees it shortened. */
const KEPT_REQUEST_CHARS = 1500;
/** Per-message caps for the other parts of the transcript, in characters. */
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
  /**
   * Messages of `messages` that stay verbatim after the summary (the latest request): shown for
   * context, marked as kept, and not counted in the stats line.
   */
  keptVerbatim?: ReadonlySet<ModelMessage> | undefined;
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
  const kept = options.keptVerbatim ?? new Set<ModelMessage>();
  const count = messages.filter((message) => !kept.has(message)).length;
  parts.push(`Stats: ${count} messages, about ${options.estimatedTokens} tokens.`);
  parts.push(`<transcript>\n${renderTranscript(messages, kept)}\n</transcript>`);
  return parts.join("\n\n");
}

/**
 * The messages as plain text: tool calls as `[tool:name] input`, results and assistant texts
 * short, user texts whole up to a shared budget (see `USER_TEXT_BUDGET_CHARS`). Messages in
 * `keptVerbatim` are marked as kept after the summary and shown shortened.
 */
export function renderTranscript(
  messages: readonly ModelMessage[],
  keptVerbatim: ReadonlySet<ModelMessage> = new Set(),
): string {
  const userTexts = messages.flatMap((message) =>
    message.role === "user" && !keptVerbatim.has(message) ? textsOf(message) : [],
  );
  const userLimit = userTextLimit(userTexts.map((text) => text.trim().length));
  return messages.map((message) => renderMessage(message, keptVerbatim.has(message), userLimit)).join("\n\n");
}

function renderMessage(message: ModelMessage, kept: boolean, userLimit: number): string {
  if (message.role === "tool") {
    const lines = message.content.map((part) => {
      const label = part.isError ? "error" : "result";
      return `[${label}:${part.toolName}] ${cut(part.output, TOOL_RESULT_CHARS)}`;
    });
    return `## Tool results\n${lines.join("\n")}`;
  }
  const cutText =
    message.role === "assistant"
      ? (text: string) => cut(text, ASSISTANT_TEXT_CHARS)
      : kept
        ? (text: string) => cut(text, KEPT_REQUEST_CHARS)
        : (text: string) => cutMiddle(text, userLimit);
  const heading =
    message.role === "assistant"
      ? "## Assistant"
      : kept
        ? "## User (latest request; it stays verbatim after your summary, shown shortened here)"
        : "## User";
  if (typeof message.content === "string") return `${heading}\n${cutText(message.content)}`;
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") lines.push(cutText(part.text));
    else if (part.type === "image") lines.push("[image]");
    else if (part.type === "tool-call") {
      lines.push(`[tool:${part.name}] ${cut(JSON.stringify(part.input ?? {}) ?? "{}", TOOL_INPUT_CHARS)}`);
    }
  }
  return `${heading}\n${lines.join("\n")}`;
}

function textsOf(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [message.content];
  return message.content.flatMap((part) => (part.type === "text" ? [part.text] : []));
}

/**
 * The one cap that fits `lengths` into `USER_TEXT_BUDGET_CHARS` while cutting only the longest
 * texts (everything shorter than the cap stays whole); unlimited when they all fit.
 */
export function userTextLimit(lengths: readonly number[], budget = USER_TEXT_BUDGET_CHARS): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let remaining = budget;
  for (let index = 0; index < sorted.length; index++) {
    const length = sorted[index]!;
    const left = sorted.length - index;
    if (length * left > remaining) return Math.max(USER_TEXT_MIN_CHARS, Math.floor(remaining / left));
    remaining -= length;
  }
  return Number.POSITIVE_INFINITY;
}

function cut(text: string, limit: number): string {
  return truncateEnd(text.trim(), limit, " … [cut]");
}

/** Cuts to about `limit` code points keeping the head (4/5) and the tail, saying how much is gone. */
function cutMiddle(text: string, limit: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  const codePoints = Array.from(trimmed);
  if (codePoints.length <= limit) return trimmed;
  const head = Math.floor(limit * 0.8);
  const tail = limit - head;
  const omitted = codePoints.length - head - tail;
  return `${codePoints.slice(0, head).join("")}\n… [${omitted} characters cut] …\n${codePoints.slice(codePoints.length - tail).join("")}`;
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
