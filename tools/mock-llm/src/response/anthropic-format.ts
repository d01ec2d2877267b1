import type { ResponsePlan } from "./plan-response.js";
import { parseArguments } from "./plan-response.js";
import { jsonEvent, type SseEvent, type WireFormat } from "./wire-format.js";

const STOP_REASONS = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" } as const;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

/** A fixed signature for thinking blocks, so clients that require one find it. */
const THINKING_SIGNATURE = "bW9jay1sbG0tdGhpbmtpbmctc2lnbmF0dXJl";

/** Anthropic Messages: `message_start`, content blocks (thinking, text, tool_use), `message_delta`, `message_stop`. */
export const anthropicFormat: WireFormat = {
  api: "anthropic",
  toolIdPrefix: "toolu_mock_",
  streamEvents(plan) {
    const events: SseEvent[] = [
      event("message_start", { message: { ...messageShell(plan), content: [], stop_reason: null } }),
      { event: "ping", data: JSON.stringify({ type: "ping" }) },
    ];
    let index = 0;
    if (plan.reasoning.length > 0) {
      events.push(
        event("content_block_start", {
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        }),
      );
      for (const thinking of plan.reasoning) {
        events.push(event("content_block_delta", { index, delta: { type: "thinking_delta", thinking } }));
      }
      events.push(
        event("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: THINKING_SIGNATURE },
        }),
      );
      events.push(event("content_block_stop", { index }));
      index++;
    }
    if (plan.text.length > 0) {
      events.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const text of plan.text) {
        events.push(event("content_block_delta", { index, delta: { type: "text_delta", text } }));
      }
      events.push(event("content_block_stop", { index }));
      index++;
    }
    for (const call of plan.toolCalls) {
      events.push(
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
        }),
      );
      for (const partial_json of call.argumentChunks) {
        events.push(
          event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }),
        );
      }
      events.push(event("content_block_stop", { index }));
      index++;
    }
    events.push(
      event("message_delta", {
        delta: { stop_reason: STOP_REASONS[plan.finishReason], stop_sequence: null },
        usage: { output_tokens: plan.usage.outputTokens },
      }),
      event("message_stop", {}),
    );
    return events;
  },
  body(plan) {
    const content: Record<string, unknown>[] = [];
    if (plan.reasoning.length > 0) {
      content.push({ type: "thinking", thinking: plan.reasoning.join(""), signature: THINKING_SIGNATURE });
    }
    if (plan.text.length > 0) content.push({ type: "text", text: plan.text.join("") });
    for (const call of plan.toolCalls) {
      content.push({ type: "tool_use", id: call.id, name: call.name, input: parseArguments(call.arguments) });
    }
    return {
      ...messageShell(plan),
      content,
      stop_reason: STOP_REASONS[plan.finishReason],
      usage: { ...usage(plan), output_tokens: plan.usage.outputTokens },
    };
  },
  errorEvent(status, message) {
    return { event: "error", data: JSON.stringify(this.errorBody(status, message)) };
  },
  errorBody(status, message) {
    return {
      type: "error",
      error: {
        type: ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"),
        message,
      },
    };
  },
};

function event(type: string, fields: Record<string, unknown>): SseEvent {
  return jsonEvent({ type, ...fields }, type);
}

function messageShell(plan: ResponsePlan): Record<string, unknown> {
  return {
    id: `msg_${plan.id}`,
    type: "message",
    role: "assistant",
    model: plan.model,
    stop_sequence: null,
    usage: { ...usage(plan), output_tokens: 1 },
  };
}

function usage(plan: ResponsePlan): Record<string, number> {
  return {
    input_tokens: plan.usage.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: plan.usage.cacheReadTokens,
  };
}
