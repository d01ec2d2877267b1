import type { ModelMessage } from "@nyzhi/provider";

const MAX_TITLE = 80;

/**
 * A session's title: the first user message's text (its last text part: what was typed, after
 * images and an `@path` context block), on one line, cut by code points to 80
 * (77 + "...") — never inside a multi-byte character. "untitled" when there is none.
 */
export function titleFromMessages(messages: readonly ModelMessage[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const text =
      typeof message.content === "string"
        ? message.content
        : (message.content.findLast((part) => part.type === "text")?.text ?? "");
    const line = text.replace(/\s+/g, " ").trim();
    if (line === "") continue;
    const codePoints = Array.from(line);
    return codePoints.length > MAX_TITLE ? `${codePoints.slice(0, MAX_TITLE - 3).join("")}...` : line;
  }
  return "untitled";
}
