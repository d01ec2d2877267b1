// A tool of your own: `defineTool` with a zod schema; nyzhi validates the model's arguments against
// it, shapes errors, truncates output and runs it under the same permissions as its built-in tools.
// The program answers the approvals itself (here: it allows reads of the project, denies the rest).
// Run: node dist/custom-tool.js
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type AgentEvent, defineTool, openSession } from "@nyzhi/core";
import { z } from "zod";

const countLines = defineTool({
  name: "count_lines",
  description: "Counts the lines of a text file of the project. Use it instead of reading a file to count.",
  inputSchema: z.object({ path: z.string().describe("File path, relative to the project") }),
  kind: "read",
  mutates: false,
  async execute(input, context) {
    const text = await readFile(resolve(context.cwd, input.path), "utf8");
    return `${input.path}: ${text.split("\n").length} lines`;
  },
});

const session = await openSession({
  cwd: process.cwd(),
  env: process.env,
  ephemeral: true,
  tools: [countLines],
  // The program answers approvals: each is an `approval-requested` event (of the lead, a subagent
  // or a teammate, tagged with the agent), answered with `session.answer(id, …)`: "allow",
  // "allow-always", "deny", or { deny: "a reason the model reads" }.
  host: { interactive: true, onEvent: (event) => decide(event) },
});
function decide(event: AgentEvent): void {
  if (event.type !== "approval-requested") return;
  session.answer(
    event.id,
    event.tool === "count_lines" ? "allow" : { deny: "this example only counts lines" },
  );
}
try {
  const turn = session.runTurn("How many lines does README.md have?");
  let next = await turn.next();
  while (!next.done) {
    const event = next.value;
    decide(event);
    if (event.type === "tool-end") process.stdout.write(`${event.name} → ${event.output}\n`);
    next = await turn.next();
  }
  process.stdout.write(`${next.value.text}\n`);
} finally {
  await session.close();
}
