// One prompt, one answer: the lead agent works in the current folder with the credentials it finds
// (ANTHROPIC_API_KEY, OPENAI_API_KEY, … or what `nyz login` stored), streams its answer, and says
// what it cost. Run: node dist/one-shot.js "What is this project?"
import { openSession } from "@nyzhi/core";

const prompt = process.argv[2] ?? "What is this project? Answer in one sentence.";
// `ephemeral`: nothing is saved (no session file); pass `env` explicitly (the library never reads
// process.env on its own).
const session = await openSession({ cwd: process.cwd(), env: process.env, ephemeral: true });
try {
  const turn = session.runTurn(prompt);
  let next = await turn.next();
  while (!next.done) {
    const event = next.value;
    // Events are a discriminated union on `type` (kebab-case here; `nyz exec --json` writes them
    // snake_case). Depth 0 is the lead; subagents' events carry their own depth and nickname.
    if (event.type === "text-delta" && event.agent.depth === 0) process.stdout.write(event.delta);
    if (event.type === "tool-start") process.stderr.write(`[${event.name}]\n`);
    next = await turn.next();
  }
  const result = next.value;
  const { usage, costUsd } = session.usage();
  process.stdout.write(
    `\n${result.reason} in ${result.steps} steps · ${usage.inputTokens} in / ${usage.outputTokens} out tokens · $${costUsd.toFixed(4)}\n`,
  );
} finally {
  await session.close();
}
