// A saved session whose transcript has `items` items, for `nyz -c` to resume: turns of a user
// prompt, the lead's text with a `read` call, the call's result, and a markdown answer (four
// transcript items each: prompt, message, tool row, message), in the format SessionStore writes.
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

const ITEMS_PER_TURN = 4;

function turn(index) {
  const callId = `toolu_bench_${index}`;
  return [
    { role: "user", content: `question ${index}: what does section ${index} of notes.txt say?` },
    {
      role: "assistant",
      content: [
        { type: "text", text: `Let me read section ${index}.` },
        { type: "tool-call", id: callId, name: "read", input: { file_path: "notes.txt" } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: callId,
          toolName: "read",
          output: Array.from(
            { length: 6 },
            (_, line) => `${String(line + 1).padStart(6)}|line ${line} of ${index}`,
          ).join("\n"),
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: `## Section ${index}\n\nIt says **six lines**, among them:\n\n- line 0 of ${index}\n- line 5 of ${index}\n\n\`\`\`ts\nconst section = ${index};\n\`\`\`\n`,
        },
      ],
    },
  ];
}

/** Writes the session into `<home>/data/sessions` (NYZHI_HOME layout); resolves with its id. */
export async function writeSessionFixture({ home, projectRoot, items, model }) {
  const id = randomUUID();
  const turns = Math.ceil(items / ITEMS_PER_TURN);
  const messages = Array.from({ length: turns }, (_, index) => turn(index + 1)).flat();
  const now = new Date().toISOString();
  const record = {
    version: 1,
    meta: {
      id,
      title: "bench: a long session",
      createdAt: now,
      updatedAt: now,
      messageCount: messages.length,
      provider: "anthropic",
      model,
      projectRoot,
    },
    messages,
  };
  const directory = join(home, "data", "sessions");
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, `${id}.json`), JSON.stringify(record), { mode: 0o600 });
  return { id, turns, items: turns * ITEMS_PER_TURN };
}
