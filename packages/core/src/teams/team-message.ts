/** One inbox entry (spec core §3.3), plus an `id` so a message is delivered and marked read once. */
export interface TeamMessage {
  id: string;
  from: string;
  /** Plain text, or for structured messages the JSON `{"type": …, …data}`. */
  text: string;
  /** RFC 3339. */
  timestamp: string;
  read: boolean;
  color?: string;
}

/** The structured message types (spec core §3.3), snake_case as written in `text`. */
export const TEAM_MESSAGE_TYPES = [
  "message",
  "broadcast",
  "direct_message",
  "request",
  "response",
  "task_assignment",
  "shutdown_request",
  "shutdown_response",
  "plan_approval_request",
  "plan_approval_response",
  "task_completed",
  "idle_notification",
  "conflict_detected",
  "merge_request",
] as const;

export type TeamMessageType = (typeof TEAM_MESSAGE_TYPES)[number];

/** Types that open an exchange: sending one creates a `request_id` the answer must carry. */
export const REQUEST_TYPES: ReadonlySet<TeamMessageType> = new Set([
  "request",
  "shutdown_request",
  "plan_approval_request",
]);

/** Types that answer a request and must name its `request_id`. */
export const RESPONSE_TYPES: ReadonlySet<TeamMessageType> = new Set([
  "response",
  "shutdown_response",
  "plan_approval_response",
]);

/** A parsed structured message. */
export interface StructuredMessage {
  type: TeamMessageType;
  [field: string]: unknown;
}

/** The `text` of a structured message. */
export function structuredText(type: TeamMessageType, data: Record<string, unknown> = {}): string {
  return JSON.stringify({ type, ...data });
}

/** The structured content of a message's text, or undefined for plain text. */
export function parseStructured(text: string): StructuredMessage | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text) as { type?: unknown };
    if (typeof value.type === "string" && (TEAM_MESSAGE_TYPES as readonly string[]).includes(value.type))
      return value as StructuredMessage;
  } catch {
    // Plain text that happens to start with a brace.
  }
  return undefined;
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** `<teammate_message from="…" color="…">text</teammate_message>`; the colour only when set. */
export function formatTeammateMessage(message: Pick<TeamMessage, "from" | "text" | "color">): string {
  const color = message.color ? ` color="${escapeAttribute(message.color)}"` : "";
  return `<teammate_message from="${escapeAttribute(message.from)}"${color}>${message.text}</teammate_message>`;
}

/** One line per message, as injected into a model request and returned by `read_inbox`. */
export function formatTeammateMessages(messages: readonly TeamMessage[]): string {
  return messages.map(formatTeammateMessage).join("\n");
}
