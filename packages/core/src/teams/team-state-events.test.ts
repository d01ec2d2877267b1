import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent, AgentEventOf } from "../events/agent-events.js";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
  until,
} from "../runtime/testing/subagent-harness.js";
import { TeamService } from "./team-service.js";
import { TeamStore } from "./team-store.js";
import type { TeamDirs } from "./team-types.js";

const LEAD = { agentId: "lead", depth: 0 };

function teamStates(events: readonly AgentEvent[]): AgentEventOf<"team-state">[] {
  return events.filter((event): event is AgentEventOf<"team-state"> => event.type === "team-state");
}

function memberState(event: AgentEventOf<"team-state"> | undefined, name: string): string | undefined {
  return event?.teams[0]?.members.find((member) => member.name === name)?.state;
}

describe("team-state events", () => {
  let root: string;
  let dirs: TeamDirs;
  let service: TeamService | undefined;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "nyzhi-team-state-"));
    dirs = { teams: join(root, "teams"), tasks: join(root, "tasks") };
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await rm(root, { recursive: true, force: true });
  });

  function open(events: AgentEvent[], options: { watchTeams?: boolean } = {}): TeamService {
    service = new TeamService({
      dirs,
      lead: LEAD,
      team: { name: "alpha" },
      lifecycle: { teammateIdle: async () => undefined, taskCompleted: async () => undefined } as never,
      memberTools: () => [],
      emit: (event) => events.push(event),
      ...options,
    });
    return service;
  }

  it("are emitted when this process's team code writes: a member, the board, mail", async () => {
    const events: AgentEvent[] = [];
    const teams = open(events, { watchTeams: false });
    await teams.store.create({ name: "alpha", members: [{ name: "ruby", role: "reviewer" }] });
    await until(() => memberState(teamStates(events).at(-1), "ruby") === "pending");
    await teams.board.create("alpha", { subject: "review a.ts" });
    await until(() => teamStates(events).at(-1)?.teams[0]?.board.open === 1);
    expect(teamStates(events).at(-1)?.changes).toContain("board");
    await teams.mailbox.send("alpha", "ruby", { from: "team-lead", text: "review a.ts" });
    await until(() => teamStates(events).at(-1)?.teams[0]?.members[0]?.unread === 1);
    await teams.store.updateMember("alpha", "ruby", { state: "working" });
    await until(() => memberState(teamStates(events).at(-1), "ruby") === "working");
    // Nothing changed, nothing said: each event differs from the one before.
    const shown = teamStates(events).map((event) => JSON.stringify(event.teams));
    expect(new Set(shown).size).toBe(shown.length);
  });

  it("follow another process's writes to the team files through core's one watcher", async () => {
    const events: AgentEvent[] = [];
    open(events);
    // Another process: its own store on the same files, unknown to this session's service.
    const elsewhere = new TeamStore(dirs);
    await elsewhere.create({ name: "alpha", members: [{ name: "ruby", role: "reviewer" }] });
    await until(() => memberState(teamStates(events).at(-1), "ruby") === "pending", 10_000);
    await elsewhere.updateMember("alpha", "ruby", { state: "idle" });
    await until(() => memberState(teamStates(events).at(-1), "ruby") === "idle", 10_000);
  });
});

describe("team-state events in a session", () => {
  let harness: SubagentHarness | undefined;
  afterEach(async () => {
    await harness?.runtime.teams?.close();
    await harness?.close();
    harness = undefined;
  });

  it("carry a teammate's status as it moves (working, then idle) on the session's stream", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK },
          times: 1,
          response: { toolCalls: [{ name: "team_create", arguments: { name: "duo" } }] },
        },
        {
          match: { system: LEAD_MARK },
          times: 1,
          response: {
            toolCalls: [{ name: "spawn_teammate", arguments: { name: "delta", message: "Say hello." } }],
          },
        },
        { match: { system: LEAD_MARK }, response: { text: "spawned" } },
        // Slow enough that "working" outlasts the reporter's 25 ms gathering on a loaded machine:
        // a state that starts and ends within one gathering is shown as where it ended.
        { match: { system: "You are 'delta', a teammate" }, response: { text: "hello", delayMs: 1500 } },
      ],
    });
    await harness.turn("make a team");
    const states = () =>
      teamStates(harness!.events)
        .map((event) => memberState(event, "delta"))
        .filter((state) => state !== undefined);
    await until(() => states().includes("idle"));
    expect(states()).toContain("working");
    // Tagged with the lead, whose teams they are.
    expect(teamStates(harness.events).every((event) => event.agent.depth === 0)).toBe(true);
  });
});
