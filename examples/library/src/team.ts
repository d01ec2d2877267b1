// A team: the lead creates one with team tools (team_create, task_create, spawn_teammate), the
// teammates share a task board and message the lead, and `followTeam` keeps the turn going until
// the team is quiet. Run: node dist/team.js
import { type AgentEvent, openSession } from "@nyzhi/core";

const session = await openSession({
  cwd: process.cwd(),
  env: process.env,
  ephemeral: true,
  // This program answers approvals (below: it allows every call; a real one asks, as custom-tool.ts decides).
  host: { interactive: true, onEvent: (event) => allowAll(event) },
});
/** Approvals asked while no turn runs (teammates working between turns) come to `onEvent`. */
function allowAll(event: AgentEvent): void {
  if (event.type === "approval-requested") session.answer(event.id, "allow");
}
try {
  const turn = session.runTurn("Form a team of two to write the install and usage sections of the README.", {
    followTeam: { waitMs: 120_000 },
  });
  let next = await turn.next();
  while (!next.done) {
    const event = next.value;
    allowAll(event);
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
