import type { ProviderMetadata } from "../model/model-request.js";
import type { StreamPart } from "../model/stream-part.js";

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  providerMetadata?: ProviderMetadata;
}

/**
 * Collects streamed tool-call arguments so an adapter can yield the whole `tool-call` part after
 * `tool-call-end`. Calls are keyed by whatever the vendor uses to address them in deltas (a
 * content-block index, an output index, an item id).
 */
export class ToolCallBuffer {
  private readonly calls = new Map<string | number, PendingCall>();

  start(key: string | number, id: string, name: string, providerMetadata?: ProviderMetadata): StreamPart {
    const call: PendingCall = { id, name, arguments: "" };
    if (providerMetadata) call.providerMetadata = providerMetadata;
    this.calls.set(key, call);
    return { type: "tool-call-start", id, name };
  }

  has(key: string | number): boolean {
    return this.calls.has(key);
  }

  /** The delta part, or undefined when no call is open under `key` or the delta is empty. */
  append(key: string | number, delta: string): StreamPart | undefined {
    const call = this.calls.get(key);
    if (!call || delta === "") return undefined;
    call.arguments += delta;
    return { type: "tool-call-delta", id: call.id, delta };
  }

  /** `tool-call-end` and the whole `tool-call`; empty when no call is open under `key`. */
  end(key: string | number): StreamPart[] {
    const call = this.calls.get(key);
    if (!call) return [];
    this.calls.delete(key);
    return [{ type: "tool-call-end", id: call.id }, wholeToolCall(call)];
  }

  /** Ends every open call, in the order they started. */
  endAll(): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const key of [...this.calls.keys()]) parts.push(...this.end(key));
    return parts;
  }

  get size(): number {
    return this.calls.size;
  }
}

function wholeToolCall(call: PendingCall): StreamPart {
  const argumentsText = call.arguments.trim() === "" ? "{}" : call.arguments;
  const part: StreamPart = {
    type: "tool-call",
    id: call.id,
    name: call.name,
    arguments: argumentsText,
    input: parseToolArguments(argumentsText),
  };
  if (call.providerMetadata) part.providerMetadata = call.providerMetadata;
  return part;
}

/** Parses tool arguments JSON; `{}` for empty text, `undefined` when the text is not valid JSON. */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
