import type {
  AssistantContentPart,
  FinishReason,
  LanguageModel,
  ModelRequest,
  ProviderError,
  Usage,
} from "@nyzhi/provider";
import type { AgentEvent, AgentTag } from "../events/agent-events.js";

/** A tool call as the model made it; `input` is undefined when its JSON did not parse. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
  input: unknown;
}

export interface StepOutcome {
  /** Assistant content in stream order: reasoning, text and tool calls. */
  content: AssistantContentPart[];
  toolCalls: ModelToolCall[];
  text: string;
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  error: ProviderError | undefined;
  /** Whether any part other than usage arrived: a failure after it was not retried by the provider. */
  received: boolean;
  /** Whether reasoning deltas were streamed. */
  reasoning: boolean;
  /** Every tool call begun (`tool-call-start`), whole or not. */
  startedToolCalls: { callId: string; name: string }[];
}

/** Streams one model request, forwarding deltas as events and collecting the assistant message. */
export async function streamStep(
  model: LanguageModel,
  request: ModelRequest,
  options: { signal: AbortSignal; agent: AgentTag; emit: (event: AgentEvent) => void },
): Promise<StepOutcome> {
  const { agent, emit } = options;
  const outcome = emptyOutcome();
  const blocks = new Map<
    string,
    | { type: "text"; text: string }
    | { type: "reasoning"; text: string; signature?: string; redactedData?: string }
  >();
  for await (const part of model.doStream(request, { signal: options.signal })) {
    if (part.type !== "usage" && part.type !== "error" && part.type !== "retry") outcome.received = true;
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const block =
          part.type === "text-start"
            ? { type: "text" as const, text: "" }
            : { type: "reasoning" as const, text: "" };
        blocks.set(`${part.type}:${part.id}`, block);
        outcome.content.push(block);
        break;
      }
      case "text-delta": {
        const block = blocks.get(`text-start:${part.id}`);
        if (block) block.text += part.delta;
        outcome.text += part.delta;
        emit({ type: "text-delta", agent, delta: part.delta });
        break;
      }
      case "reasoning-delta": {
        const block = blocks.get(`reasoning-start:${part.id}`);
        if (block) block.text += part.delta;
        outcome.reasoning = true;
        emit({ type: "reasoning-delta", agent, delta: part.delta });
        break;
      }
      case "reasoning-end": {
        const block = blocks.get(`reasoning-start:${part.id}`);
        if (block && block.type === "reasoning") {
          if (part.signature !== undefined) block.signature = part.signature;
          if (part.redactedData !== undefined) block.redactedData = part.redactedData;
        }
        break;
      }
      case "text-end":
        break;
      case "tool-call-start":
        outcome.startedToolCalls.push({ callId: part.id, name: part.name });
        emit({ type: "tool-call-start", agent, callId: part.id, name: part.name });
        break;
      case "tool-call-delta":
        emit({ type: "tool-call-delta", agent, callId: part.id, delta: part.delta });
        break;
      case "tool-call-end":
        break;
      case "tool-call": {
        outcome.toolCalls.push({
          id: part.id,
          name: part.name,
          arguments: part.arguments,
          input: part.input,
        });
        const call: AssistantContentPart = {
          type: "tool-call",
          id: part.id,
          name: part.name,
          input: part.input ?? {},
        };
        if (part.providerMetadata) call.providerMetadata = part.providerMetadata;
        outcome.content.push(call);
        break;
      }
      case "usage":
        outcome.usage = part.usage;
        break;
      case "finish":
        outcome.finishReason = part.reason;
        break;
      case "error":
        outcome.error = part.error;
        break;
      case "retry":
        // The provider's retry of this agent's request (a 429, an overload): tagged with this agent.
        emit({
          type: "retry",
          agent,
          attempt: part.attempt,
          maxAttempts: part.maxRetries,
          waitMs: part.waitMs,
          reason: part.error.message,
        });
        break;
    }
  }
  // Empty text and reasoning blocks carry nothing and some vendors reject them on the way back.
  outcome.content = outcome.content.filter(
    (part) =>
      part.type === "tool-call" ||
      part.text !== "" ||
      (part.type === "reasoning" && part.redactedData !== undefined),
  );
  return outcome;
}

/** A step that streamed nothing (yet). */
export function emptyOutcome(): StepOutcome {
  return {
    content: [],
    toolCalls: [],
    text: "",
    usage: undefined,
    finishReason: undefined,
    error: undefined,
    received: false,
    reasoning: false,
    startedToolCalls: [],
  };
}
