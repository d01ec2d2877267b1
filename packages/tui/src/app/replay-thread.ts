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

const CONTEXT_BLOCK = "<context>\n";

/**
 * A saved user message as the transcript shows it: what was typed, and a chip per attachment (an
 * `@path` context part's files and folders, images), as when it was sent.
 */
function userPrompt(content: Extract<ThreadMessage, { role: "user" }>["content"]): {
  text: string;
  chips: string[];
} {
  if (typeof content === "string") return { text: content, chips: [] };
  const chips: string[] = [];
  const typed: string[] = [];
  for (const part of content) {
    if (part.type === "image") chips.push(`[image ${part.mediaType}]`);
    else if (part.text.startsWith(CONTEXT_BLOCK)) {
      for (const match of part.text.matchAll(/^<(file|directory) path="([^"]*)"(?: lines="(\d+)")?>$/gm))
        chips.push(match[1] === "file" ? `[file ${match[2]} · ${match[3]} lines]` : `[folder ${match[2]}]`);
    } else typed.push(part.text);
  }
  return { text: typed.join("\n"), chips };
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
      const { text, chips } = userPrompt(message.content);
      if (text.trim() !== "" || chips.length > 0)
        inputs.push({ type: "user-prompt", text, ...(chips.length > 0 ? { chips } : {}), at: 0 });
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
