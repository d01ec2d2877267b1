import { parseArguments, type ResponsePlan } from "./plan-response.js";
import { jsonEvent, type SseEvent, type WireFormat } from "./wire-format.js";

const FINISH_REASONS = { stop: "STOP", tool_calls: "STOP", length: "MAX_TOKENS" } as const;

const ERROR_STATUSES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

type Part = Record<string, unknown>;

/**
 * Gemini generateContent: one `GenerateContentResponse` per SSE data line. Reasoning is sent as
 * `thought: true` text parts, text as text parts, and each function call whole in one part (Gemini does
 * not split call arguments); the last chunk carries `finishReason` and `usageMetadata`.
 */
export const geminiFormat: WireFormat = {
  api: "gemini",
  toolIdPrefix: "",
  streamEvents(plan) {
    const chunks: Part[][] = [
      ...plan.reasoning.map((text) => [{ text, thought: true }]),
      ...plan.text.map((text) => [{ text }]),
      ...plan.toolCalls.map((call) => [functionCallPart(call.name, call.arguments)]),
    ];
    if (chunks.length === 0) chunks.push([{ text: "" }]);
    return chunks.map(
      (parts, index): SseEvent =>
        jsonEvent(
          index === chunks.length - 1
            ? responseBody(plan, parts, { last: true })
            : responseBody(plan, parts, { last: false }),
        ),
    );
  },
  body(plan) {
    const parts: Part[] = [];
    if (plan.reasoning.length > 0) parts.push({ text: plan.reasoning.join(""), thought: true });
    if (plan.text.length > 0) parts.push({ text: plan.text.join("") });
    for (const call of plan.toolCalls) parts.push(functionCallPart(call.name, call.arguments));
    return responseBody(plan, parts, { last: true });
  },
  errorEvent(status, message) {
    return { data: JSON.stringify(this.errorBody(status, message)) };
  },
  errorBody(status, message) {
    return {
      error: {
        code: status,
        message,
        status: ERROR_STATUSES[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"),
      },
    };
  },
};

function functionCallPart(name: string, argumentsJson: string): Part {
  return { functionCall: { name, args: parseArguments(argumentsJson) } };
}

function responseBody(
  plan: ResponsePlan,
  parts: Part[],
  options: { last: boolean },
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: "model" }, index: 0 };
  if (options.last) candidate.finishReason = FINISH_REASONS[plan.finishReason];
  const body: Record<string, unknown> = { candidates: [candidate] };
  if (options.last) {
    body.usageMetadata = {
      promptTokenCount: plan.usage.inputTokens,
      candidatesTokenCount: plan.usage.outputTokens,
      totalTokenCount: plan.usage.inputTokens + plan.usage.outputTokens,
      cachedContentTokenCount: plan.usage.cacheReadTokens,
    };
  }
  body.modelVersion = plan.model;
  body.responseId = plan.id;
  return body;
}
