// A team: the lead creates one with team tools (team_create, task_create, spawn_teammate), the
// teammates share a task board and message the lead, and `followTeam` keeps the turn going until
// the team is quiet. Run: node dist/team.js
import { openSession } from "@nyzhi/core";

const session = await openSession({
  cwd: process.cwd(),
  env: process.env,
  ephemeral: true,
  // Headless: allow every call (in a real program, answer approvals as custom-tool.ts does).
  host: { approve: async () => "allow" },
});
try {
  const turn = session.runTurn("Form a team of two to write the install and usage sections of the README.", {
    followTeam: { waitMs: 120_000 },
  });
  let next = await turn.next();
  while (!next.done) {
    const event = next.value;
    if (event.type === "tool-start" && event.agent.depth === 0)
      process.stdout.write(`lead → ${event.name}\n`);
    if (event.type === "subagent-spawned")
      process.stdout.write(`teammate ${event.nickname} (${event.role}) joined\n`);
    if (event.type === "turn-end" && event.agent.depth > 0 && event.text) {
      process.stdout.write(`${event.agent.nickname ?? event.agent.agentId}: ${event.text}\n`);
    }
    next = await turn.next();
  }
  process.stdout.write(`${next.value.text}\n`);
} finally {
  await session.close();
}
