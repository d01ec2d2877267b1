import { afterEach, describe, expect, it } from "vitest";
import { type SubagentHarness, startSubagentHarness } from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lead = { agentId: "lead", depth: 0 };

describe("subagent safety and lifecycle edges", () => {
  it("gives a read-only role no way to delegate, so it cannot obtain a writer", async () => {
    harness = await startSubagentHarness(
      { rules: [{ response: { text: "ok" } }] },
      {
        configure: (config) => {
          config.agent.agents.roles.auditor = { description: "audits", read_only: true, enabled: true };
        },
      },
    );
    const manager = harness.runtime.manager!;
    const auditor = await manager.spawn({ parent: lead, message: "audit", roleName: "auditor" });
    await manager.wait({ callerId: "lead", ids: [auditor.agentId], timeoutMs: 10_000 });
    const offered = harness.mock.requests.find(
      (request) => request.messages[0]?.text === "audit",
    )!.toolsOffered;
    expect(offered).not.toContain("spawn_agent");
    expect(offered).not.toContain("task");
    expect(offered).not.toContain("write");
  });

  it("lets a subagent close only its own children", async () => {
    harness = await startSubagentHarness({ rules: [{ response: { fault: { type: "hang" } } }] });
    const manager = harness.runtime.manager!;
    const first = await manager.spawn({ parent: lead, message: "one" });
    const second = await manager.spawn({ parent: lead, message: "two" });
    const tools = harness.runtime.context.tools;
    const closeTool = tools.get("close_agent")!;
    const asFirst = harness.runtime.context.createToolContext("c1", new AbortController().signal, () => {});
    asFirst.agent = { id: first.agentId, depth: 1 };
    const refused = await closeTool.run({ id: second.agentId }, asFirst);
    expect(refused).toMatchObject({ isError: true });
    expect(refused.output).toContain("is not one of your subagents");
    expect(manager.info(second.agentId)?.status).toBe("running");
  });

  it("reports a resumed agent's new completion to wait(any)", async () => {
    harness = await startSubagentHarness({
      rules: [
        { match: { lastUser: "slow" }, response: { text: "slow done", delayMs: 3000 } },
        { response: { text: "quick done", delayMs: 20 } },
      ],
    });
    const manager = harness.runtime.manager!;
    const quick = await manager.spawn({ parent: lead, message: "quick" });
    await manager.spawn({ parent: lead, message: "slow" });
    expect(Object.keys((await manager.wait({ callerId: "lead", timeoutMs: 10_000 })).status)).toEqual([
      quick.agentId,
    ]);
    await manager.resume(quick.agentId, "again");
    const startedAt = Date.now();
    const next = await manager.wait({ callerId: "lead", timeoutMs: 10_000 });
    expect(Object.keys(next.status)).toEqual([quick.agentId]);
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });

  it("does not drop a message sent while the child writes its final answer", async () => {
    harness = await startSubagentHarness({
      rules: [
        { match: { lastUser: "start" }, response: { text: "first answer", delayMs: 400 } },
        { match: { lastUser: "one more thing" }, response: { text: "second answer" } },
      ],
    });
    const manager = harness.runtime.manager!;
    const child = await manager.spawn({ parent: lead, message: "start" });
    await harness.mock.waitForRequests(1, 5000);
    manager.sendInput(child.agentId, "one more thing");
    await manager.wait({ callerId: "lead", ids: [child.agentId], timeoutMs: 10_000 });
    expect(manager.info(child.agentId)?.status).toBe("completed: second answer");
    expect(harness.mock.requests[1]!.messages.map((message) => message.text)).toEqual([
      "start",
      "first answer",
      "one more thing",
    ]);
  });
});
