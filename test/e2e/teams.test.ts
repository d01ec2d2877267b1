import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockLlm, Rule, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const teammate = (name: string) => `You are '${name}', a teammate`;
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const chain = (system: string, responses: Rule["response"][]): Rule[] =>
  responses.map((response) => ({ match: { system }, times: 1, response }));

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "nyzhi-e2e-teams-"));
  home = await tempHome();
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Three teammates: alfa and charlie take #1 and #3; bravo waits until the lead assigns #2 (blocked by #1). */
function teamScenario(): Scenario {
  return {
    rules: [
      ...chain(LEAD, [
        call("team_create", {
          name: "crew",
          members: [{ name: "alfa" }, { name: "bravo" }, { name: "charlie" }],
        }),
        call("task_create", { subject: "schema" }),
        call("task_create", { subject: "api", blocked_by: [1] }),
        call("task_create", { subject: "docs" }),
        {
          toolCalls: [
            { name: "spawn_teammate", arguments: { name: "alfa", message: "Do task 1." } },
            {
              name: "spawn_teammate",
              arguments: { name: "bravo", message: "Wait for an assignment.", role: "explorer" },
            },
            { name: "spawn_teammate", arguments: { name: "charlie", message: "Do task 3." } },
          ],
        },
        { text: "The team is working." },
      ]),
      {
        match: { system: LEAD, anyMessage: "alfa: schema done" },
        times: 1,
        response: call("task_update", { task_id: 2, owner: "bravo" }),
      },
      {
        match: { system: LEAD, anyMessage: "charlie: docs done" },
        times: 1,
        response: call("send_team_message", {
          to: "charlie",
          type: "shutdown_request",
          request_id: "bye-charlie",
          text: "Thanks, you can stop.",
        }),
      },
      { match: { system: LEAD }, response: { text: "Noted." } },
      ...chain(teammate("alfa"), [
        call("task_update", { task_id: "1", owner: "alfa", status: "in_progress" }),
        call("task_update", { task_id: "1", status: "completed" }),
        call("send_team_message", { to: "team-lead", text: "alfa: schema done" }),
        { text: "schema finished" },
      ]),
      { match: { system: teammate("alfa") }, response: { text: "nothing more" } },
      {
        match: { system: teammate("bravo"), anyMessage: "task_assignment", lastIsToolResult: false },
        times: 1,
        response: call("task_update", { task_id: "2", owner: "bravo", status: "in_progress" }),
      },
      {
        match: { system: teammate("bravo"), anyMessage: "status=in_progress" },
        times: 1,
        response: call("task_update", { task_id: "2", status: "completed" }),
      },
      {
        match: { system: teammate("bravo"), anyMessage: "status=completed" },
        times: 1,
        response: call("send_team_message", { to: "team-lead", text: "bravo: api done" }),
      },
      { match: { system: teammate("bravo") }, response: { text: "standing by" } },
      ...chain(teammate("charlie"), [
        call("task_update", { task_id: 3, owner: "charlie", status: "in_progress" }),
        call("task_update", { task_id: 3, status: "completed" }),
        call("send_team_message", { to: "team-lead", text: "charlie: docs done" }),
        { text: "docs finished" },
      ]),
      { match: { system: teammate("charlie") }, response: { text: "nothing more" } },
    ],
  };
}

describe("teams through nyz exec --team-name and nyz teams", () => {
  it("one exec run completes a team flow; teams show/list/delete reflect it", async () => {
    mock = await startScenario(teamScenario());
    const env = anthropicEnv(mock, home);
    const result = await runNyz(
      ["exec", "--json", "--full-auto", "--team-name", "crew", "build it with a team"],
      {
        cwd: workspace,
        env,
        timeoutMs: 30_000,
      },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ type: "summary", reason: "completed" });
    // The summary counts the teammates' tokens too: it equals the sum of every step's usage line.
    const teammateSteps = lines.filter((line) => line.type === "usage" && line.agent_id !== undefined);
    expect(teammateSteps.length).toBeGreaterThan(0);
    const stepTotal = lines
      .filter((line) => line.type === "usage")
      .reduce((sum, line) => sum + Number(line.input_tokens), 0);
    expect(lines.at(-1)!.input_tokens).toBe(stepTotal);

    const leadRequests = mock.requests.filter((request) => request.system?.includes(LEAD));
    const leadSaw = JSON.stringify(leadRequests.map((request) => request.messages));
    for (const report of ["alfa: schema done", "bravo: api done", "charlie: docs done"])
      expect(leadSaw).toContain(`${report}</teammate_message>`);
    expect(leadSaw).toContain(
      '\\"type\\":\\"shutdown_response\\",\\"request_id\\":\\"bye-charlie\\",\\"approve\\":true',
    );
    const bravoWoke = mock.requests.find(
      (request) =>
        request.system?.includes(teammate("bravo")) &&
        JSON.stringify(request.messages).includes("task_assignment"),
    );
    expect(bravoWoke?.system).toContain("You are Scout");

    const shown = await runNyz(["teams", "show", "crew", "--json"], { cwd: workspace, env });
    expect(shown.code).toBe(0);
    const team = JSON.parse(shown.stdout);
    expect(team.lead).toBe("team-lead");
    expect(
      team.members.map((member: Record<string, unknown>) => [
        member.name,
        member.state ?? null,
        member.running,
        member.unread,
      ]),
    ).toEqual([
      ["team-lead", null, false, 0],
      ["alfa", "stopped", false, 0],
      ["bravo", "stopped", false, 0],
      ["charlie", "shutdown", false, 0],
    ]);
    expect(team.members[2].role).toBe("explorer");
    expect(
      team.tasks.map((task: Record<string, unknown>) => [task.id, task.status, task.owner, task.blockedBy]),
    ).toEqual([
      ["1", "completed", "alfa", []],
      ["2", "completed", "bravo", []],
      ["3", "completed", "charlie", []],
    ]);

    const text = await runNyz(["teams", "show", "crew"], { cwd: workspace, env });
    expect(text.stdout).toContain("Team 'crew'");
    expect(text.stdout).toMatch(/charlie\s+default\s+shutdown\s+0 unread/);
    expect(text.stdout).toContain("[completed] #2 (bravo) -- api");

    const listed = await runNyz(["teams", "list", "--json"], { cwd: workspace, env });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name: "crew", lead: "team-lead", tasks: { completed: 3 } }),
    ]);
    expect((await runNyz(["teams", "delete", "crew"], { cwd: workspace, env })).stdout).toBe(
      "Team 'crew' deleted.\n",
    );
    expect((await runNyz(["teams", "list"], { cwd: workspace, env })).stdout).toBe("No teams found.\n");
    const missing = await runNyz(["teams", "show", "crew"], { cwd: workspace, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Team 'crew' not found.");
  }, 40_000);
});
