import type { Rule } from "@nyzhi/mock-llm";
import { afterEach, describe, expect, it } from "vitest";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
  until,
} from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.runtime.teams?.close();
  await harness?.close();
  harness = undefined;
});

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const chain = (system: string, responses: Rule["response"][]): Rule[] =>
  responses.map((response) => ({ match: { system }, times: 1, response }));

describe("TeamService for hosts (the app's agents panel)", () => {
  it("names the teams the lead takes part in, and stops one teammate on request", async () => {
    harness = await startSubagentHarness({
      rules: [
        ...chain(LEAD_MARK, [
          call("team_create", { name: "duo" }),
          call("spawn_teammate", { name: "delta", message: "Say hello." }),
          { text: "spawned" },
        ]),
        { match: { system: "You are 'delta', a teammate" }, response: { text: "hello" } },
      ],
    });
    const teams = harness.runtime.teams!;
    expect(teams.teamNames()).toEqual([]);
    await harness.turn("make a team");
    expect(teams.teamNames()).toEqual(["duo"]);
    await until(() => teams.teammates()[0]?.state === "idle");
    expect(await teams.stopTeammate("duo", "nobody")).toBe(false);
    expect(await teams.stopTeammate("duo", "delta")).toBe(true);
    expect(teams.teammates()[0]?.state).toBe("stopped");
  });
});
