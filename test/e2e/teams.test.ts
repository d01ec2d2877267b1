import { TEAM_WAKE_PROMPT } from "@nyzhi/core";
import type { MockLlm, Rule, Scenario } from "@nyzhi/mock-llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicEnv, startScenario } from "./helpers/mock-env.js";
import { runNyz, tempHome, tempProject } from "./helpers/run-nyz.js";

const LEAD = "You are Nizzy";
const teammate = (name: string) => `You are '${name}', a teammate`;
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const chain = (system: string, responses: Rule["response"][]): Rule[] =>
  responses.map((response) => ({ match: { system }, times: 1, response }));

let mock: MockLlm | undefined;
let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempProject("nyzhi-e2e-teams-");
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
    expect(lines.at(-1)).toMatchObject({ type: "turn_complete", reason: "completed" });
    // turn_complete counts the teammates' tokens too: it equals the sum of every step's usage line.
    const teammateSteps = lines.filter((line) => line.type === "usage" && line.agent_id !== "lead");
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

describe("teams a plain nyz exec creates", () => {
  it("without --team-name, a teammate the lead spawned works and reports before the run ends", async () => {
    mock = await startScenario({
      rules: [
        ...chain(LEAD, [
          call("team_create", { name: "pair", members: [{ name: "bob" }] }),
          call("spawn_teammate", { name: "bob", message: "Check the plan, then tell me." }),
          { text: "Bob is on it." },
        ]),
        // bob's report and idle notice may wake the lead once or twice.
        {
          match: { system: LEAD, anyMessage: "bob: the plan holds" },
          response: { text: "Bob checked the plan." },
        },
        // bob answers late, so the lead's own turn has ended before his report arrives.
        ...chain(teammate("bob"), [
          { ...call("send_team_message", { to: "team-lead", text: "bob: the plan holds" }), delayMs: 300 },
          { text: "reported" },
        ]),
      ],
    });
    const result = await runNyz(["exec", "--json", "--full-auto", "make a team and ask bob"], {
      cwd: workspace,
      env: anthropicEnv(mock, home),
      timeoutMs: 30_000,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ type: "turn_complete", reason: "completed" });
    expect(lines.filter((line) => line.type === "subagent_status" && line.nickname === "bob")).toEqual([
      expect.objectContaining({ status: "working" }),
      expect.objectContaining({ status: "idle" }),
      expect.objectContaining({ status: "stopped" }),
    ]);

    const bobRequests = mock.requests.filter((request) => request.system?.includes(teammate("bob")));
    expect(bobRequests.map((request) => request.messages[0])).toEqual([
      { role: "user", text: "Check the plan, then tell me." },
      { role: "user", text: "Check the plan, then tell me." },
    ]);
    const leadRequests = mock.requests.filter((request) => request.system?.includes(LEAD));
    expect(JSON.stringify(leadRequests[2]!.messages)).toContain(
      "Teammate 'bob' (role: default) started in team 'pair' and is now working.",
    );
    // Lead requests after its own turn are wakes on bob's mail; one of them carries his report.
    const wakes = leadRequests.slice(3).map((request) => request.messages.at(-1)!);
    expect(wakes.length).toBeGreaterThan(0);
    expect(wakes.every((message) => message.text.startsWith(TEAM_WAKE_PROMPT))).toBe(true);
    expect(wakes.map((message) => message.text).join("\n")).toContain(
      '<teammate_message from="bob" color="#98c379">bob: the plan holds</teammate_message>',
    );
    expect(
      lines
        .filter((line) => line.type === "text_delta")
        .map((line) => line.text)
        .join(""),
    ).toContain("Bob checked the plan.");
  }, 40_000);
});
