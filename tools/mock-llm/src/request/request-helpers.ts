import type { RecordedMessage } from "../types.js";

/** The parts of a request that rules match on and tests assert on, the same for every wire format. */
export interface NormalisedRequest {
  model: string | undefined;
  stream: boolean;
  system: string | undefined;
  messages: RecordedMessage[];
  toolsOffered: string[];
  /** OpenAI chat `stream_options.include_usage`. */
  includeUsage: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Text of a content value that is a string or a list of `{ type, text }` parts; images become `[image]`. */
export function contentText(content: unknown, textTypes: string[] = ["text"]): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((part) => {
      if (!isRecord(part)) return "";
      if (
        typeof part.text === "string" &&
        (part.type === undefined || textTypes.includes(part.type as string))
      ) {
        return part.text;
      }
      if (typeof part.type === "string" && part.type.includes("image")) return "[image]";
      return "";
    })
    .join("");
}

/** Tool arguments as a JSON string, whether they arrived as an object or already as a string. */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value ?? {});
}

/** Removes keys whose value is undefined, so recorded messages deep-equal their literal form. */
export function message(fields: RecordedMessage): RecordedMessage {
  const result: RecordedMessage = { role: fields.role, text: fields.text };
  if (fields.toolCalls && fields.toolCalls.length > 0) result.toolCalls = fields.toolCalls;
  if (fields.toolResults && fields.toolResults.length > 0) result.toolResults = fields.toolResults;
  return result;
}
