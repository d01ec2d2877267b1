import { pendingSecretPrefixLength } from "@nyzhi/config";
import type { AgentEvent } from "@nyzhi/core";

type StreamedEvent = Extract<AgentEvent, { type: "text-delta" | "reasoning-delta" | "tool-output" }>;

function isStreamed(event: AgentEvent): event is StreamedEvent {
  return event.type === "text-delta" || event.type === "reasoning-delta" || event.type === "tool-output";
}

/** One stream: an agent's text, an agent's reasoning, or one tool call's output. */
function streamKey(event: StreamedEvent): string {
  return event.type === "tool-output"
    ? `tool\u0000${event.callId}`
    : `${event.type}\u0000${event.agent.agentId}`;
}

const textOf = (event: StreamedEvent) => (event.type === "tool-output" ? event.text : event.delta);
const withText = (event: StreamedEvent, text: string): StreamedEvent =>
  event.type === "tool-output" ? { ...event, text } : { ...event, delta: text };

/**
 * Wraps an event sink so a known credential streamed across several events of one stream (a
 * model repeating a key it read in `text-delta`s or `reasoning-delta`s, a command printing one
 * in `tool-output` pieces) reaches the writer whole, where it is redacted: the tail of each piece
 * that could be the start of a secret is held back and sent with the next piece of the same
 * stream, or before any other event (of the same agent, for a streamed one; parallel tool calls
 * keep theirs), or on `flush()`. Text is never lost or reordered within a stream.
 */
export function holdSplitSecrets(emit: (event: AgentEvent) => void): {
  emit: (event: AgentEvent) => void;
  flush: () => void;
} {
  const held = new Map<string, StreamedEvent>();
  const release = (keep: (pending: StreamedEvent) => boolean) => {
    for (const [key, pending] of [...held]) {
      if (keep(pending)) continue;
      held.delete(key);
      emit(pending);
    }
  };
  const flush = () => release(() => false);
  return {
    emit(event) {
      if (!isStreamed(event)) {
        flush();
        emit(event);
        return;
      }
      const key = streamKey(event);
      release(
        (pending) =>
          streamKey(pending) === key ||
          pending.agent.agentId !== event.agent.agentId ||
          (pending.type === "tool-output" && event.type === "tool-output"),
      );
      const earlier = held.get(key);
      const text = (earlier ? textOf(earlier) : "") + textOf(event);
      held.delete(key);
      const keep = pendingSecretPrefixLength(text);
      if (keep < text.length) emit(withText(event, text.slice(0, text.length - keep)));
      if (keep > 0) held.set(key, withText(event, text.slice(text.length - keep)));
    },
    flush,
  };
}
