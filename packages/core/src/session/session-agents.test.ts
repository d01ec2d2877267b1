import { describe, expect, it, vi } from "vitest";
import type { AgentManager } from "../subagents/agent-manager.js";
import { sessionAgents } from "./session-agents.js";

function agentsWith(known: readonly string[]) {
  const resume = vi.fn(async (_id: string, _text: string) => ({ status: "running", nickname: "Opal" }));
  const manager = { info: (id: string) => (known.includes(id) ? { id } : undefined), resume };
  const agents = sessionAgents({
    leadId: "lead",
    manager: manager as unknown as AgentManager,
    teams: undefined,
  });
  return { agents, resume };
}

describe("session.agents.resume (r in the agents panel)", () => {
  it("resumes a finished agent the session keeps", async () => {
    const { agents, resume } = agentsWith(["a1"]);
    await expect(agents.resume("a1", "go on")).resolves.toBe("Resumed Opal (running).");
    expect(resume).toHaveBeenCalledWith("a1", "go on");
  });

  it("says why a finished task agent cannot be resumed, instead of 'Agent with id … not found'", async () => {
    const { agents, resume } = agentsWith([]);
    await expect(agents.resume("t1", "go on")).rejects.toThrow("a `task` agent ends with its task");
    expect(resume).not.toHaveBeenCalled();
  });
});
