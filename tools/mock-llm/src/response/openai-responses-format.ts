import { openAiErrorBody } from "./openai-errors.js";
import type { PlannedToolCall, ResponsePlan } from "./plan-response.js";
import { jsonEvent, type SseEvent, type WireFormat } from "./wire-format.js";

type Item = Record<string, unknown>;

/**
 * OpenAI Responses: `response.created`, `response.in_progress`, then one output item each for the
 * reasoning summary, the message and every function call (added, deltas, done), then
 * `response.completed` (or `response.incomplete` for finishReason `length`) with usage.
 * Every event carries `sequence_number`, and item/content indexes match the final `output`.
 */
export const openAiResponsesFormat: WireFormat = {
  api: "openai-responses",
  toolIdPrefix: "call_mock_",
  streamEvents(plan) {
    const events: SseEvent[] = [];
    const emit = (type: string, fields: Record<string, unknown>) => {
      events.push(jsonEvent({ type, sequence_number: events.length, ...fields }, type));
    };
    emit("response.created", { response: responseObject(plan, "in_progress", []) });
    emit("response.in_progress", { response: responseObject(plan, "in_progress", []) });
    const items = outputItems(plan);
    items.forEach((item, outputIndex) => {
      const itemId = item.id as string;
      const at = { item_id: itemId, output_index: outputIndex };
      emit("response.output_item.added", { output_index: outputIndex, item: startedItem(item) });
      if (item.type === "reasoning") {
        const text = plan.reasoning.join("");
        const summary = { ...at, summary_index: 0 };
        emit("response.reasoning_summary_part.added", {
          ...summary,
          part: { type: "summary_text", text: "" },
        });
        for (const delta of plan.reasoning)
          emit("response.reasoning_summary_text.delta", { ...summary, delta });
        emit("response.reasoning_summary_text.done", { ...summary, text });
        emit("response.reasoning_summary_part.done", { ...summary, part: { type: "summary_text", text } });
      } else if (item.type === "message") {
        const text = plan.text.join("");
        const content = { ...at, content_index: 0 };
        emit("response.content_part.added", { ...content, part: outputText("") });
        for (const delta of plan.text)
          emit("response.output_text.delta", { ...content, delta, logprobs: [] });
        emit("response.output_text.done", { ...content, text, logprobs: [] });
        emit("response.content_part.done", { ...content, part: outputText(text) });
      } else {
        for (const delta of (item.call as PlannedToolCall).argumentChunks) {
          emit("response.function_call_arguments.delta", { ...at, delta });
        }
        emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: item.arguments });
      }
      emit("response.output_item.done", { output_index: outputIndex, item: finishedItem(item) });
    });
    const status = plan.finishReason === "length" ? "incomplete" : "completed";
    emit(`response.${status}`, { response: responseObject(plan, status, items.map(finishedItem)) });
    return events;
  },
  body(plan) {
    const status = plan.finishReason === "length" ? "incomplete" : "completed";
    return responseObject(plan, status, outputItems(plan).map(finishedItem));
  },
  errorBody: openAiErrorBody,
  errorEvent(status, message) {
    const { error } = openAiErrorBody(status, message);
    return jsonEvent({ type: "error", code: error.code ?? error.type, message, param: null }, "error");
  },
};

function outputItems(plan: ResponsePlan): Item[] {
  const items: Item[] = [];
  if (plan.reasoning.length > 0) {
    items.push({ id: `rs_${plan.id}`, type: "reasoning", summary: [summaryText(plan.reasoning.join(""))] });
  }
  if (plan.text.length > 0) {
    items.push({
      id: `msg_${plan.id}`,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [outputText(plan.text.join(""))],
    });
  }
  plan.toolCalls.forEach((call, index) => {
    items.push({
      id: `fc_${plan.id}_${index}`,
      type: "function_call",
      status: "completed",
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      call,
    });
  });
  return items;
}

/** The item as `output_item.added` shows it: nothing generated yet. */
function startedItem(item: Item): Item {
  if (item.type === "reasoning") return { ...item, summary: [] };
  if (item.type === "message") return { ...item, status: "in_progress", content: [] };
  const { call: _call, ...rest } = item;
  return { ...rest, status: "in_progress", arguments: "" };
}

function finishedItem(item: Item): Item {
  const { call: _call, ...rest } = item;
  return rest;
}

function outputText(text: string): Item {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

function summaryText(text: string): Item {
  return { type: "summary_text", text };
}

function responseObject(plan: ResponsePlan, status: string, output: Item[]): Record<string, unknown> {
  const done = status !== "in_progress";
  return {
    id: `resp_${plan.id}`,
    object: "response",
    created_at: plan.created,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: null,
    model: plan.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: done ? usage(plan) : null,
    metadata: {},
  };
}

function usage(plan: ResponsePlan): Record<string, unknown> {
  return {
    input_tokens: plan.usage.inputTokens,
    input_tokens_details: { cached_tokens: plan.usage.cacheReadTokens },
    output_tokens: plan.usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: plan.usage.inputTokens + plan.usage.outputTokens,
  };
}
