import type { RecordedMessage } from "../types.js";
import {
  argumentsText,
  asArray,
  asString,
  isRecord,
  message,
  type NormalisedRequest,
} from "./request-helpers.js";

type ToolResult = NonNullable<RecordedMessage["toolResults"]>[number];
type ToolCall = NonNullable<RecordedMessage["toolCalls"]>[number];

/**
 * Gemini generateContent: role `model` is the assistant; `thought` parts are skipped; a content made only
 * of `functionResponse` parts is recorded with role `tool`. Tool ids are the part's `id`, else the name.
 */
export function normaliseGeminiRequest(
  body: Record<string, unknown>,
  pathModel: string | undefined,
  stream: boolean,
): NormalisedRequest {
  const instruction = body.systemInstruction ?? body.system_instruction;
  const system = isRecord(instruction) ? partsText(asArray(instruction.parts)) : undefined;
  const toolsOffered: string[] = [];
  for (const tool of asArray(body.tools).filter(isRecord)) {
    const declarations = asArray(tool.functionDeclarations ?? tool.function_declarations).filter(isRecord);
    for (const declaration of declarations) {
      const name = asString(declaration.name);
      if (name !== undefined) toolsOffered.push(name);
    }
  }
  return {
    model: pathModel,
    stream,
    system,
    messages: asArray(body.contents).filter(isRecord).map(normaliseContent),
    toolsOffered,
    includeUsage: false,
  };
}

function normaliseContent(raw: Record<string, unknown>): RecordedMessage {
  const parts = asArray(raw.parts).filter(isRecord);
  const toolCalls: ToolCall[] = [];
  const toolResults: ToolResult[] = [];
  for (const part of parts) {
    const call = part.functionCall ?? part.function_call;
    const response = part.functionResponse ?? part.function_response;
    if (isRecord(call)) {
      const name = asString(call.name) ?? "";
      toolCalls.push({ id: asString(call.id) ?? name, name, arguments: argumentsText(call.args) });
    } else if (isRecord(response)) {
      const name = asString(response.name) ?? "";
      toolResults.push({
        id: asString(response.id) ?? name,
        content: JSON.stringify(response.response ?? {}),
      });
    }
  }
  const text = partsText(parts);
  const role = raw.role === "model" ? "assistant" : toolResults.length > 0 && text === "" ? "tool" : "user";
  return message({ role, text, toolCalls, toolResults });
}

function partsText(parts: unknown[]): string {
  return parts
    .filter(isRecord)
    .map((part) => {
      if (part.thought === true || typeof part.text !== "string") {
        return isRecord(part.inlineData ?? part.inline_data) ? "[image]" : "";
      }
      return part.text;
    })
    .join("");
}
