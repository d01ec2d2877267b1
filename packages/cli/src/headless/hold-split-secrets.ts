import { pendingSecretPrefixLength } from "@nyzhi/config";
import type { AgentEvent } from "@nyzhi/core";

/**
 * Wraps an event sink so a known credential streamed across several `text-delta` events (a model
 * repeating a key it read) reaches the writer whole, where it is redacted: the tail of each delta
 * that could be the start of a secret is held back and sent with the next delta of the same agent,
 * or before any other event, or on `flush()`. Text is never lost or reordered within an agent.
 */
export function holdSplitSecrets(emit: (event: AgentEvent) => void): {
  emit: (event: AgentEvent) => void;
  flush: () => void;
} {
  const held = new Map<string, Extract<AgentEvent, { type: "text-delta" }>>();
  const flush = () => {
    const pending = [...held.values()];
    held.clear();
    for (const event of pending) emit(event);
  };
  return {
    emit(event) {
      if (event.type !== "text-delta") {
        flush();
        emit(event);
        return;
      }
      const key = event.agent.agentId;
      const text = (held.get(key)?.delta ?? "") + event.delta;
      held.delete(key);
      const keep = pendingSecretPrefixLength(text);
      if (keep < text.length) emit({ ...event, delta: text.slice(0, text.length - keep) });
      if (keep > 0) held.set(key, { ...event, delta: text.slice(text.length - keep) });
    },
    flush,
  };
}
