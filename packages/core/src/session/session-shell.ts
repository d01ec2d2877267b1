import { randomUUID } from "node:crypto";
import type { ModelMessage } from "@nyzhi/provider";
import { executeToolCalls } from "../agent-loop/execute-tool-calls.js";
import type { AgentEvent } from "../events/agent-events.js";
import { EventQueue } from "../events/event-queue.js";
import type { AgentRuntime } from "../runtime/create-agent-runtime.js";

/** What a `!command` line did. */
export interface ShellLineResult {
  command: string;
  /** The output as the `bash` tool reports it (exit code included when not 0). */
  output: string;
  isError: boolean;
  /** Set when the line never ran (a deny rule, the sandbox, a refused approval, an interrupt). */
  refused: boolean;
}

/**
 * Runs a `!command` line the person typed as a call of the lead's `bash` tool, so it follows the
 * tool's rules: sandbox, deny rules, trust mode and approval, hooks. Yields the call's events
 * (the host shows them as a tool row); returns what it did.
 */
export async function* runShellLine(
  runtime: AgentRuntime,
  command: string,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<AgentEvent, ShellLineResult> {
  const queue = new EventQueue<AgentEvent>();
  const input = { command };
  const call = { id: `shell-${randomUUID()}`, name: "bash", arguments: JSON.stringify(input), input };
  const running = executeToolCalls(runtime.context, [call], {
    signal: options.signal ?? new AbortController().signal,
    emit: (event) => queue.push(event),
  }).finally(() => queue.close());
  let refused = false;
  for await (const event of queue) {
    if (event.type === "tool-end" && event.refused !== undefined) refused = true;
    yield event;
  }
  const [result] = await running;
  return { command, output: result?.output ?? "", isError: result?.isError === true, refused };
}

/** The user message that tells the model, on its next request, what the person ran and saw. */
export function shellLineMessage(result: ShellLineResult): ModelMessage {
  const outcome = result.refused ? "It did not run:" : "Its output:";
  return {
    role: "user",
    content: `I ran a shell command myself: \`${result.command}\`\n${outcome}\n\`\`\`\n${result.output.trimEnd()}\n\`\`\``,
  };
}
