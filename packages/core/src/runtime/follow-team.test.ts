import type { Rule } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import type { TurnResult } from "../agent-loop/run-turn.js";
import type { AgentEvent } from "../events/agent-events.js";
import { followTeam, TEAM_WAKE_PROMPT } from "./follow-team.js";
import { LEAD_MARK, type SubagentHarness, startSubagentHarness } from "./testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const teammate = (name: string) => `You are '${name}', a teammate`;
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const chain = (system: string, responses: Rule["response"][]): Rule[] =>
  responses.map((response) => ({ match: { system }, times: 1, response }));

/** One lead turn; its events go to `events`. */
async function leadTurn(h: SubagentHarness, prompt: string, events: AgentEvent[]): Promise<TurnResult> {
  const turn = h.runtime.runTurn(prompt);
  let next = await turn.next();
  while (!next.done) {
    events.push(next.value);
    next = await turn.next();
  }
  return next.value;
}

describe("followTeam", () => {
  it("a lead that created a team without a host team follows it until its teammate is idle", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", { name: "solo" }),
          call("spawn_teammate", { name: "kilo", message: "Report the answer." }),
          { text: "kilo is on it" },
        ]),
        { match: { system: LEAD_MARK, anyMessage: "kilo: the answer is 42" }, response: { text: "Got 42." } },
        // kilo answers late, so the lead's own turn has ended before its report arrives.
        ...chain(teammate("kilo"), [
          { ...call("send_team_message", { to: "team-lead", text: "kilo: the answer is 42" }), delayMs: 300 },
          { text: "reported" },
        ]),
      ],
    });
    const events: AgentEvent[] = [];
    const first = await leadTurn(harness, "ask a teammate", events);
    expect(harness.runtime.teams!.leadInTeam()).toBe(true);

    const result = await followTeam(harness.runtime, first, {
      waitMs: 10_000,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
    });
    expect(result).toMatchObject({ reason: "completed", text: "Got 42." });
    expect(harness.runtime.teams!.teammates()).toEqual([
      { team: "solo", name: "kilo", state: "idle", agentId: expect.any(String) },
    ]);
    // The lead woke on the teammate's mail (its report and idle notice come in one or two batches).
    const wakes = harness.mock.requests
      .filter((request) => request.system?.includes(LEAD_MARK))
      .map((request) => request.messages.at(-1)!)
      .filter((message) => message.role === "user" && message.text.startsWith(TEAM_WAKE_PROMPT));
    expect(result.steps).toBe(first.steps + wakes.length);
    expect(wakes.map((message) => message.text).join("\n")).toContain(
      '<teammate_message from="kilo" color="#98c379">kilo: the answer is 42</teammate_message>',
    );
    expect(wakes.at(-1)!.text).toContain('"type":"idle_notification","teammate_name":"kilo"');
    expect(events.some((event) => event.type === "error")).toBe(false);
  });

  it("returns the lead's result at once when it is in no team", async () => {
    harness = await startSubagentHarness({
      rules: [{ match: { system: LEAD_MARK }, response: { text: "hi" } }],
    });
    const first = await leadTurn(harness, "hello", []);
    expect(harness.runtime.teams!.leadInTeam()).toBe(false);
    const result = await followTeam(harness.runtime, first, {
      waitMs: 10_000,
      signal: new AbortController().signal,
      emit: () => undefined,
    });
    expect(result).toBe(first);
    expect(harness.mock.requests).toHaveLength(1);
  });
});
