import type { AgentTag } from "@nyzhi/core";
import type { TranscriptInput } from "../transcript/transcript-types.js";

type UserPart = { type: "text"; text: string } | { type: "image"; mediaType: string };
type AssistantPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; id: string; name: string; input: unknown };

/**
 * One message of a saved thread, as far as the transcript reads it (the shape of provider's
 * `ModelMessage`, which the tui does not import).
 */
export type ThreadMessage =
  | { role: "user"; content: string | readonly UserPart[] }
  | { role: "assistant"; content: string | readonly AssistantPart[] }
  | {
      role: "tool";
      content: readonly {
        toolCallId: string;
        toolName: string;
        output: string;
        isError?: boolean | undefined;
      }[];
    };

const LEAD: AgentTag = { agentId: "lead", depth: 0 };

function userText(content: Extract<ThreadMessage, { role: "user" }>["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)).join("\n");
}

/**
 * A saved thread as the transcript inputs that draw it (`nyz -c`, `/sessions`): user prompts,
 * the lead's text and thinking, and each tool call with its result, all finished. Timing is not
 * saved, so no turn footers.
 */
export function replayThread(messages: readonly ThreadMessage[]): TranscriptInput[] {
  const inputs: TranscriptInput[] = [];
  const names = new Map<string, string>();
  let step = 0;
  for (const message of messages) {
    if (message.role === "user") {
      const text = userText(message.content);
      if (text.trim() !== "") inputs.push({ type: "user-prompt", text, at: 0 });
    } else if (message.role === "assistant") {
      step += 1;
      inputs.push({ type: "step-start", agent: LEAD, step, at: 0 });
      const parts: readonly AssistantPart[] =
        typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
      for (const part of parts) {
        if (part.type === "text" && part.text !== "") {
          inputs.push({ type: "text-delta", agent: LEAD, delta: part.text, at: 0 });
        } else if (part.type === "reasoning" && part.text !== "") {
          inputs.push({ type: "reasoning-delta", agent: LEAD, delta: part.text, at: 0 });
        } else if (part.type === "tool-call") {
          names.set(part.id, part.name);
          inputs.push({
            type: "tool-start",
            agent: LEAD,
            callId: part.id,
            name: part.name,
            input: part.input,
            at: 0,
          });
        }
      }
      inputs.push({ type: "step-end", agent: LEAD, step, finishReason: "stop", toolCalls: 0, at: 0 });
    } else {
      for (const result of message.content) {
        inputs.push({
          type: "tool-end",
          agent: LEAD,
          callId: result.toolCallId,
          name: names.get(result.toolCallId) ?? result.toolName,
          output: result.output,
          isError: result.isError === true,
          durationMs: 0,
          at: 0,
        });
      }
    }
  }
  return inputs;
}
