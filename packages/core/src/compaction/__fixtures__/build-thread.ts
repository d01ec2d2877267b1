import type { ModelMessage } from "@nyzhi/provider";

/**
 * A conversation of `turns` user turns, four messages each: the request, an assistant message
 * reading a file, the tool result (every third one `largeChars` long), and the answer.
 */
export function buildLongThread(turns: number, options: { largeChars?: number } = {}): ModelMessage[] {
  const thread: ModelMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const id = `call_${turn}`;
    const large = turn % 3 === 0;
    thread.push({ role: "user", content: `Task ${turn}: explain src/file-${turn}.ts` });
    thread.push({
      role: "assistant",
      content: [
        { type: "text", text: `Reading src/file-${turn}.ts.` },
        { type: "tool-call", id, name: "read", input: { file_path: `src/file-${turn}.ts` } },
      ],
    });
    const output = large
      ? `${`line of file ${turn}\n`.repeat(Math.ceil((options.largeChars ?? 6000) / 16))}`
      : `export const value${turn} = ${turn};`;
    thread.push({ role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "read", output }] });
    thread.push({ role: "assistant", content: `Answer ${turn}: the file exports value${turn}.` });
  }
  return thread;
}

/** One user request followed by `steps` tool rounds (assistant call + tool result) and an answer. */
export function buildSingleTurnThread(steps: number): ModelMessage[] {
  const thread: ModelMessage[] = [{ role: "user", content: "Refactor everything" }];
  for (let step = 0; step < steps; step++) {
    const id = `step_${step}`;
    thread.push({
      role: "assistant",
      content: [{ type: "tool-call", id, name: "bash", input: { command: `echo ${step}` } }],
    });
    thread.push({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: id, toolName: "bash", output: `${step}\n`.repeat(200) }],
    });
  }
  thread.push({ role: "assistant", content: "All done." });
  return thread;
}

/**
 * One step of a turn that reads a file: the assistant's `read` call and its result of about
 * `chars` characters (under the offload threshold by default, so the cheap steps leave it alone).
 */
export function buildReadStep(step: number, chars = 3200): ModelMessage[] {
  const id = `read_${step}`;
  const name = `file-${step}.txt`;
  return [
    {
      role: "assistant",
      content: [
        { type: "text", text: `Reading ${name}.` },
        { type: "tool-call", id, name: "read", input: { file_path: name } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: id,
          toolName: "read",
          output: `${step}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(chars / 27))}`.slice(0, chars),
        },
      ],
    },
  ];
}
