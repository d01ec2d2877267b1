import { describe, expect, it } from "vitest";
import {
  describeAgentToolInput,
  finishedAgentToolOutput,
  readableToolOutput,
} from "./describe-agent-tools.js";
import { summarizeToolInput } from "./summarize-tool-input.js";

describe("the agent and team tools as a person reads them", () => {
  it("summarizes wait and team_create in their rows, not as key=value", () => {
    expect(summarizeToolInput("wait", { timeout_ms: 180_000, mode: "all" })).toBe(
      "every subagent until all finish · at most 3m0s",
    );
    expect(
      summarizeToolInput("team_create", {
        name: "docs",
        members: [{ name: "ana", role: "explorer" }, { name: "bo" }],
      }),
    ).toBe("docs: ana (explorer), bo");
  });

  it("shows the team and its members in the approval dialog, not the arguments' JSON", () => {
    const described = describeAgentToolInput("team_create", {
      name: "docs",
      members: [{ name: "ana", role: "explorer", model: "m" }, { name: "bo" }],
      default_model: "m",
    });
    expect(described).toBe("team docs\nmembers:\n  ana (explorer)\n  bo");
  });

  it("shows spawn_agent's result as the child it started", () => {
    const output = JSON.stringify({ agent_id: "a1", agent_nickname: "Mica", role: "explorer" });
    expect(readableToolOutput("spawn_agent", output)).toBe("started Mica (explorer)");
    expect(readableToolOutput("read", output)).toBe(output);
  });

  it("shows wait's result per agent by nickname, and nothing under a finished task (its agent's line has it)", () => {
    const names = (id: string) => ({ "id-1": "Agate", "id-2": "Pyrite" })[id];
    const output = JSON.stringify({
      status: { "id-1": "completed: Cause: a typo", "id-2": "errored: no access", "0123456789ab": "running" },
      timed_out: true,
    });
    expect(finishedAgentToolOutput("wait", output, names)).toBe(
      "Agate: completed: Cause: a typo\nPyrite: errored: no access\n01234567: running\n(timed out before they finished)",
    );
    expect(finishedAgentToolOutput("task", "Fixed greet.js", names)).toBe("");
    expect(finishedAgentToolOutput("read", "text", names)).toBe("text");
    expect(finishedAgentToolOutput("wait", "not json", names)).toBe("not json");
  });
});
