import { openAiErrorBody } from "./openai-errors.js";
import type { ResponsePlan } from "./plan-response.js";
import { jsonEvent, type SseEvent, type WireFormat } from "./wire-format.js";

/**
 * OpenAI Chat Completions: `chat.completion.chunk`s with `delta.reasoning_content` (the field
 * DeepSeek/Kimi-style servers use), `delta.content`, `delta.tool_calls` (id and name in the first chunk of
 * a call, arguments across the following ones), a `finish_reason` chunk, a usage chunk with
 * `choices: []` when `stream_options.include_usage`, and `data: [DONE]`.
 */
export const openAiChatFormat: WireFormat = {
  api: "openai-chat",
  toolIdPrefix: "call_mock_",
  streamEvents(plan, request) {
    const usageField = request.includeUsage ? { usage: null } : {};
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SseEvent =>
      jsonEvent({
        ...shell(plan, "chat.completion.chunk"),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...usageField,
      });
    const events: SseEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
    for (const reasoning of plan.reasoning) events.push(chunk({ reasoning_content: reasoning }));
    for (const content of plan.text) events.push(chunk({ content }));
    plan.toolCalls.forEach((call, index) => {
      events.push(
        chunk({
          tool_calls: [
            { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of call.argumentChunks) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    events.push(chunk({}, plan.finishReason));
    if (request.includeUsage) {
      events.push(jsonEvent({ ...shell(plan, "chat.completion.chunk"), choices: [], usage: usage(plan) }));
    }
    events.push({ data: "[DONE]" });
    return events;
  },
  body(plan) {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: plan.text.length > 0 ? plan.text.join("") : null,
      refusal: null,
      annotations: [],
    };
    if (plan.reasoning.length > 0) message.reasoning_content = plan.reasoning.join("");
    if (plan.toolCalls.length > 0) {
      message.tool_calls = plan.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    return {
      ...shell(plan, "chat.completion"),
      choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
      usage: usage(plan),
    };
  },
  errorBody: openAiErrorBody,
  errorEvent(status, message) {
    return { data: JSON.stringify(openAiErrorBody(status, message)) };
  },
};

function shell(plan: ResponsePlan, object: string): Record<string, unknown> {
  return {
    id: `chatcmpl-${plan.id}`,
    object,
    created: plan.created,
    model: plan.model,
    service_tier: "default",
    system_fingerprint: "fp_mock",
  };
}

function usage(plan: ResponsePlan): Record<string, unknown> {
  return {
    prompt_tokens: plan.usage.inputTokens,
    completion_tokens: plan.usage.outputTokens,
    total_tokens: plan.usage.inputTokens + plan.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: plan.usage.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}
