import { defaultConfig } from "@nyzhi/config";
import type { LanguageModel } from "@nyzhi/provider";
import { describe, expect, it } from "vitest";
import { createAgentRuntime } from "../runtime/create-agent-runtime.js";

const model: LanguageModel = {
  providerId: "fake",
  modelId: "fake-1",
  async *doStream() {
    yield { type: "finish", reason: "stop" };
  },
};

function lead(options: { subagents: boolean }) {
  const config = defaultConfig();
  config.agent.agents.enabled = options.subagents;
  const runtime = createAgentRuntime({ config, model, cwd: "/tmp", env: { NYZHI_HOME: "/tmp/nyzhi-none" } });
  return {
    system: runtime.context.system.map((fragment) => fragment.text).join("\n"),
    tools: runtime.context.tools.names(),
  };
}

describe("the lead's delegation guidance", () => {
  it("carries the guidance, the three playbooks and the parallel instruction while subagents are on", () => {
    const { system, tools } = lead({ subagents: true });
    expect(system).toContain("# Delegating to subagents");
    expect(system).toMatch(
      /New feature: `architect` designs -> `reviewer` validates the design \(optional\) -> you implement -> `tester` tests -> `reviewer`/,
    );
    expect(system).toMatch(
      /Complex bug fix: `debugger` finds the root cause -> you apply the fix -> `tester`/,
    );
    expect(system).toMatch(
      /Refactoring: `code-analyzer` .* -> `architect` .* -> `file-organizer` .* -> you update the logic -> `tester`/,
    );
    expect(system).toContain("issue them in parallel in the same response");
    expect(tools).toEqual(
      expect.arrayContaining([
        "task",
        "spawn_agent",
        "define_agent",
        "remove_agent",
        "list_agents",
        "get_architecture_knowledge",
      ]),
    );
  });

  it("is absent, with every delegation tool, when the subagent system is switched off", () => {
    const { system, tools } = lead({ subagents: false });
    expect(system).not.toContain("Delegating to subagents");
    for (const name of ["task", "spawn_agent", "define_agent", "remove_agent", "list_agents"])
      expect(tools).not.toContain(name);
  });
});
