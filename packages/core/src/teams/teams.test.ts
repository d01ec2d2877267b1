import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { resolveDirs } from "@nyzhi/config";
import type { Rule } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import { hookConfig } from "../hooks/testing/hook-sandbox.js";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
  until,
} from "../runtime/testing/subagent-harness.js";
import type { TeamConfig } from "./team-types.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.runtime.teams?.close();
  await harness?.close();
  harness = undefined;
});

const teammate = (name: string) => `You are '${name}', a teammate`;
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
/** Rules answered once each, in order, for one agent (identified by its system prompt). */
const chain = (system: string, responses: Rule["response"][]): Rule[] =>
  responses.map((response) => ({ match: { system }, times: 1, response }));
const requestsOf = (h: SubagentHarness, system: string) =>
  h.mock.requests.filter((request) => request.system?.includes(system));
const text = (request: { messages: unknown }) => JSON.stringify(request.messages);

/** Runs lead turns on its unread team mail until the team is quiet (what `nyz exec --team-name` does). */
async function driveLead(h: SubagentHarness, timeoutMs = 10_000): Promise<void> {
  const teams = h.runtime.teams!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await teams.waitForLead({ timeoutMs: deadline - Date.now() });
    if (state === "timeout") throw new Error(`team still busy: ${JSON.stringify(teams.teammates())}`);
    if (state === "quiet") return;
    await h.turn("(new team messages)");
  }
}

/** Like `until`, for async checks. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function teamConfig(h: SubagentHarness, team: string): Promise<TeamConfig> {
  const dirs = resolveDirs({ NYZHI_HOME: join(h.workspace, ".nyzhi-home") });
  return JSON.parse(await readFile(join(dirs.teams, team, "config.json"), "utf8"));
}

describe("teams through the lead's loop (mock LLM)", () => {
  it("a lead creates a team of three; teammates claim, complete and report; dependent tasks unblock", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", {
            name: "crew",
            members: [{ name: "alfa" }, { name: "bravo" }, { name: "charlie" }],
          }),
          call("task_create", { subject: "schema" }),
          call("task_create", { subject: "api", blocked_by: ["1"] }),
          call("task_create", { subject: "docs" }),
          {
            toolCalls: [
              { name: "spawn_teammate", arguments: { name: "alfa", message: "Do task 1." } },
              { name: "spawn_teammate", arguments: { name: "bravo", message: "Wait for an assignment." } },
              { name: "spawn_teammate", arguments: { name: "charlie", message: "Do task 3." } },
            ],
          },
          { text: "The team is working." },
        ]),
        // alfa: claim #1, complete it, report.
        ...chain(teammate("alfa"), [
          call("task_update", { task_id: "1", owner: "alfa", status: "in_progress" }),
          call("task_update", { task_id: "1", status: "completed" }),
          call("send_team_message", { to: "team-lead", text: "alfa: schema done" }),
          { text: "schema finished" },
        ]),
        { match: { system: teammate("alfa") }, response: { text: "nothing more" } },
        // bravo: idle until #2 is assigned, then claim, complete, report.
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
          call("task_update", { task_id: 3, owner: "charlie" }),
          call("task_update", { task_id: 3, status: "completed" }),
          call("send_team_message", { to: "team-lead", text: "charlie: docs done" }),
          { text: "docs finished" },
        ]),
        { match: { system: teammate("charlie") }, response: { text: "nothing more" } },
        // The lead assigns #2 to bravo once alfa reports #1 done.
        {
          match: { system: LEAD_MARK, anyMessage: "alfa: schema done" },
          times: 1,
          response: call("task_update", { task_id: "2", owner: "bravo" }),
        },
        { match: { system: LEAD_MARK }, response: { text: "Noted." } },
      ],
    });
    await harness.turn("build the feature with a team of three");
    await driveLead(harness);
    await until(() => harness!.runtime.teams!.teammates().every((member) => member.state === "idle"));

    const board = harness.runtime.teams!.board;
    expect(
      (await board.list("crew")).map((task) => [task.id, task.subject, task.status, task.owner]),
    ).toEqual([
      ["1", "schema", "completed", "alfa"],
      ["2", "api", "completed", "bravo"],
      ["3", "docs", "completed", "charlie"],
    ]);
    expect((await board.get("crew", "1"))!.blocks).toEqual(["2"]);
    expect((await board.get("crew", "2"))!.blockedBy).toEqual([]);

    const lead = requestsOf(harness, LEAD_MARK).map(text).join("\n");
    for (const report of ["alfa: schema done", "bravo: api done", "charlie: docs done"])
      expect(lead).toContain(`<teammate_message from=\\"${report.split(":")[0]}\\"`);
    expect(lead).toContain("alfa: schema done</teammate_message>");
    expect(lead).toContain("bravo: api done</teammate_message>");
    expect(lead).toContain("charlie: docs done</teammate_message>");
    expect(lead).toContain('\\"type\\":\\"task_completed\\",\\"task_id\\":\\"1\\"');
    expect(lead).toContain('\\"type\\":\\"idle_notification\\"');

    // bravo was idle and woke on the assignment: that request carries it.
    const woke = requestsOf(harness, teammate("bravo")).find((request) =>
      text(request).includes("task_assignment"),
    );
    expect(text(woke!)).toContain(
      '\\"task_id\\":\\"2\\",\\"subject\\":\\"api\\",\\"assigned_by\\":\\"team-lead\\"',
    );
    // bravo's claim of #2 succeeded because completing #1 had unblocked it.
    const bravoClaim = harness.events.find(
      (event) =>
        event.type === "tool-end" && event.agent.nickname === "bravo" && event.name === "task_update",
    );
    expect(bravoClaim).toMatchObject({
      isError: false,
      output: "Task #2 updated: status=in_progress, owner=bravo.",
    });

    const config = await teamConfig(harness, "crew");
    expect(config.members.map((member) => [member.name, member.agentType, member.state])).toEqual([
      ["team-lead", "leader", undefined],
      ["alfa", "general-purpose", "idle"],
      ["bravo", "general-purpose", "idle"],
      ["charlie", "general-purpose", "idle"],
    ]);
    // Every message was delivered once and marked read.
    const mailbox = harness.runtime.teams!.mailbox;
    for (const member of ["team-lead", "alfa", "bravo", "charlie"])
      expect(await mailbox.unreadCount("crew", member)).toBe(0);
  });

  it("an idle teammate wakes on a new message and acts on it; re-spawning it does not duplicate it", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", { name: "duo" }),
          call("spawn_teammate", { name: "delta", message: "Say hello.", role: "explorer" }),
          { text: "spawned" },
        ]),
        {
          match: { system: teammate("delta"), anyMessage: "check the README" },
          response: call("read_inbox", {}),
        },
        { match: { system: teammate("delta") }, response: { text: "hello" } },
        {
          match: { system: LEAD_MARK, lastUser: "again" },
          times: 1,
          response: call("spawn_teammate", { name: "delta", message: "check the README" }),
        },
        { match: { system: LEAD_MARK }, response: { text: "ok" } },
      ],
    });
    await harness.turn("make a team");
    const teams = harness.runtime.teams!;
    await until(() => teams.teammates()[0]?.state === "idle");
    const before = requestsOf(harness, teammate("delta")).length;
    expect(requestsOf(harness, teammate("delta"))[0]!.system).toContain("You are Scout");

    await harness.turn("again");
    await until(() =>
      requestsOf(harness!, teammate("delta")).some((request) => text(request).includes("check the README")),
    );
    const woke = requestsOf(harness, teammate("delta"))[before]!;
    expect(woke.messages.at(-1)!.text).toBe(
      '<teammate_message from="team-lead" color="#e06c75">check the README</teammate_message>',
    );
    const spawnResult = harness.events.find(
      (event) =>
        event.type === "tool-end" &&
        event.name === "spawn_teammate" &&
        event.output.includes("already running"),
    );
    expect(spawnResult).toBeDefined();
    const config = await teamConfig(harness, "duo");
    expect(config.members.map((member) => member.name)).toEqual(["team-lead", "delta"]);
    expect(config.members[1]).toMatchObject({
      role: "explorer",
      agentType: "general-purpose",
      pid: process.pid,
    });
    await until(() => teams.teammates()[0]?.state === "idle");
  });

  it("spawn_teammate says 'started' for a member that never ran, 'restarted' for one that did", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", { name: "trio", members: [{ name: "india" }] }),
          call("spawn_teammate", { name: "india", message: "Listed, never ran." }),
          call("spawn_teammate", { name: "juliet", message: "Not listed." }),
          { text: "spawned" },
        ]),
        ...chain(LEAD_MARK, [
          call("spawn_teammate", { name: "india", message: "Back to work." }),
          { text: "respawned" },
        ]),
        { match: { system: teammate("india") }, response: { text: "done" } },
        { match: { system: teammate("juliet") }, response: { text: "done" } },
      ],
    });
    const spawned = () =>
      harness!.events.flatMap((event) =>
        event.type === "tool-end" && event.name === "spawn_teammate" ? [event.output] : [],
      );
    await harness.turn("start two");
    expect(spawned()).toEqual([
      "Teammate 'india' (role: default) started in team 'trio' and is now working. It reports to 'team-lead'; its messages reach you before your next steps.",
      "Teammate 'juliet' (role: default) started in team 'trio' and is now working. It reports to 'team-lead'; its messages reach you before your next steps.",
    ]);
    const teams = harness.runtime.teams!;
    await until(() => teams.teammates().every((member) => member.state === "idle"));
    await teams.close();
    await harness.turn("bring india back");
    expect(spawned()[2]).toBe(
      "Teammate 'india' (role: default) restarted in team 'trio' and is now working. It reports to 'team-lead'; its messages reach you before your next steps.",
    );
  });

  it("shutdown request and plan approval round-trip between the lead and a teammate", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", { name: "pair" }),
          call("spawn_teammate", { name: "echo", message: "Plan notes.md.", plan_mode: true }),
          { text: "waiting for the plan" },
        ]),
        {
          match: { system: LEAD_MARK, lastUser: "approve" },
          times: 1,
          response: call("send_team_message", {
            to: "echo",
            type: "plan_approval_response",
            request_id: "plan-1",
            approve: true,
            text: "Go ahead.",
          }),
        },
        {
          match: { system: LEAD_MARK, lastUser: "stop" },
          times: 1,
          response: call("send_team_message", {
            to: "echo",
            type: "shutdown_request",
            request_id: "bye-1",
            text: "We are done.",
          }),
        },
        { match: { system: LEAD_MARK }, response: { text: "ok" } },
        // echo: in plan mode it proposes; once approved it writes the file.
        {
          match: { system: teammate("echo"), anyMessage: "plan_approval_response", lastIsToolResult: false },
          times: 1,
          response: call("write", { file_path: "notes.md", content: "notes\n" }),
        },
        {
          match: { system: teammate("echo"), anyMessage: "plan_approval_response" },
          response: { text: "written" },
        },
        {
          match: { system: teammate("echo"), lastIsToolResult: false },
          times: 1,
          response: call("send_team_message", {
            to: "team-lead",
            type: "plan_approval_request",
            request_id: "plan-1",
            text: "Plan: write notes.md",
          }),
        },
        { match: { system: teammate("echo") }, response: { text: "plan sent" } },
      ],
    });
    await harness.turn("start");
    const teams = harness.runtime.teams!;
    await until(() => teams.teammates()[0]?.state === "idle");
    const planning = requestsOf(harness, teammate("echo"))[0]!;
    expect(planning.system).toContain("# Plan mode");
    expect(planning.toolsOffered).not.toContain("write");
    expect(planning.toolsOffered).not.toContain("bash");
    expect(planning.toolsOffered).toContain("send_team_message");

    await harness.turn("approve");
    const leadSaw = text(requestsOf(harness, LEAD_MARK).at(-1)!);
    expect(leadSaw).toContain(
      '\\"type\\":\\"plan_approval_request\\",\\"request_id\\":\\"plan-1\\",\\"content\\":\\"Plan: write notes.md\\"',
    );
    await eventually(
      async () =>
        (await readFile(join(harness!.workspace, "notes.md"), "utf8").catch(() => "")) === "notes\n",
    );
    expect(await readFile(join(harness.workspace, "notes.md"), "utf8")).toBe("notes\n");
    const approved = requestsOf(harness, teammate("echo")).find((request) =>
      text(request).includes("plan_approval_response"),
    )!;
    expect(approved.toolsOffered).toContain("write");
    expect(approved.system).not.toContain("# Plan mode");
    await until(() => teams.teammates()[0]?.state === "idle");

    await harness.turn("stop");
    await until(() => teams.teammates()[0]?.state === "shutdown");
    await harness.turn("anything from echo?");
    const last = text(requestsOf(harness, LEAD_MARK).at(-1)!);
    expect(last).toContain(
      '\\"type\\":\\"shutdown_response\\",\\"request_id\\":\\"bye-1\\",\\"approve\\":true',
    );
    expect((await teamConfig(harness, "pair")).members[1]).toMatchObject({ name: "echo", state: "shutdown" });
  });

  it("teammate_idle (exit 2) keeps a teammate working; task_completed (exit 2) rejects a completion", async () => {
    harness = await startSubagentHarness(
      {
        rules: [
          ...chain(LEAD_MARK, [
            call("team_create", { name: "hooked" }),
            call("task_create", { subject: "risky" }),
            call("spawn_teammate", { name: "foxtrot", message: "Finish task 1." }),
            { text: "ok" },
          ]),
          { match: { system: LEAD_MARK }, response: { text: "ok" } },
          ...chain(teammate("foxtrot"), [
            call("task_update", { task_id: "1", owner: "foxtrot", status: "completed" }),
            { text: "tried" },
          ]),
          { match: { system: teammate("foxtrot") }, response: { text: "still here" } },
        ],
      },
      {
        configure: (config) => {
          config.agent.hooks = [
            hookConfig("task_completed", { command: "echo 'tests are red' >&2; exit 2" }),
            hookConfig("teammate_idle", {
              command: "[ -f idle-once ] && exit 0; touch idle-once; echo 'run the linter too' >&2; exit 2",
            }),
          ];
        },
      },
    );
    await harness.turn("go");
    const teams = harness.runtime.teams!;
    await until(() => teams.teammates()[0]?.state === "idle");
    const rejected = harness.events.find(
      (event) => event.type === "tool-end" && event.agent.nickname === "foxtrot",
    );
    expect(rejected).toMatchObject({
      isError: true,
      output: "Completion of task #1 was rejected by a task_completed hook: tests are red",
    });
    expect((await teams.board.get("hooked", "1"))!.status).toBe("pending");
    const requests = requestsOf(harness, teammate("foxtrot"));
    expect(requests.at(-1)!.messages.at(-1)!.text).toBe("run the linter too");
  });
});
