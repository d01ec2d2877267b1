// Subagents driven from code: define a role, spawn three agents in it at once, wait for all of
// them, send one a follow-up (resume), and close them. Their events (spawned, status, completed with
// the answer, usage) arrive on `host.onBackgroundEvent` while no turn of the lead runs.
// Run: node dist/fan-out.js
import { loadConfig } from "@nyzhi/config";
import { type AgentEvent, openSession } from "@nyzhi/core";

// A role defined in code: an entry of `agent.agents.roles`, as a config file would have it.
const loaded = await loadConfig({ cwd: process.cwd(), env: process.env });
loaded.config.agent.agents.roles.summarizer = {
  description: "Summarises one part of the project in two sentences.",
  system_prompt: "You are a summarizer. Read what you are pointed at and answer in two sentences.",
  read_only: true,
  enabled: true,
};

const answers = new Map<string, string>();
const session = await openSession({
  cwd: process.cwd(),
  env: process.env,
  config: loaded,
  ephemeral: true,
  host: {
    onEvent: (event: AgentEvent) => {
      if (event.type === "subagent-completed") {
        answers.set(event.childId, event.result ?? event.status);
        process.stdout.write(`${event.nickname} (${event.role}) finished: ${event.result ?? event.status}\n`);
      }
    },
  },
});
try {
  // The session's agent verbs: spawn and wait as the lead's own tools do; its events reach the host.
  const parts = ["the source folder", "the tests", "the documentation"];
  const spawned = await Promise.all(
    parts.map((part) => session.agents.spawn({ roleName: "summarizer", message: `Summarise ${part}.` })),
  );
  for (const agent of spawned)
    process.stdout.write(`spawned ${agent.nickname} (${agent.role}) on ${agent.model}\n`);
  await session.agents.wait({ mode: "all", timeoutMs: 120_000 });

  // A finished agent keeps its thread: resume it with a follow-up, wait again, then stop it.
  const first = spawned[0];
  if (first) {
    await session.agents.resume(first.agentId, "follow-up: which file would you read first?");
    await session.agents.wait({ ids: [first.agentId], mode: "all", timeoutMs: 120_000 });
    await session.agents.stop(first.agentId);
  }
  const { usage, costUsd } = session.usage();
  process.stdout.write(
    `${answers.size} answers · ${usage.inputTokens} in / ${usage.outputTokens} out · $${costUsd.toFixed(4)}\n`,
  );
} finally {
  await session.close();
}
