import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { READ_TOOLS } from "../roles/role-definition.js";
import {
  LEAD_MARK,
  type SubagentHarness,
  startSubagentHarness,
  until,
} from "../runtime/testing/subagent-harness.js";

let harness: SubagentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const childRequests = (h: SubagentHarness) =>
  h.mock.requests.filter((request) => !request.system?.includes(LEAD_MARK));

describe("spawn_agent through the lead's loop", () => {
  it("runs three explorers at once, each briefed and fenced to read-only tools, and wait collects them", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { system: LEAD_MARK, requestIndex: 1 },
          response: {
            text: "Splitting the search three ways.",
            toolCalls: [1, 2, 3].map((n) => ({
              name: "spawn_agent",
              arguments: { agent_type: "explorer", message: `find area ${n}` },
            })),
          },
        },
        { match: { system: "Context Briefing" }, response: { text: "found it", delayMs: 300 } },
        {
          match: {
            system: LEAD_MARK,
            lastIsToolResult: true,
            anyMessage: "agent_nickname",
            toolsOffered: ["wait"],
          },
          times: 1,
          response: { toolCalls: [{ name: "wait", arguments: { mode: "all" } }] },
        },
        { match: { system: LEAD_MARK }, response: { text: "All three reported." } },
      ],
    });
    const { runtime, workspace } = harness;
    // Parent state the briefing must carry: a change and an open todo.
    const changed = join(workspace, "src-notes.md");
    await runtime.tracker.beforeChange(changed, "write");
    await writeFile(changed, "notes\n");
    await runtime.tracker.afterChange(changed, "write");
    await runtime.todos.merge([{ id: "t1", content: "map the modules", status: "in_progress" }]);

    const events = await harness.turn("survey the codebase");

    const children = childRequests(harness);
    expect(children).toHaveLength(3);
    expect(harness.mock.maxConcurrent).toBeGreaterThanOrEqual(3);
    for (const request of children) {
      expect(request.system).toContain("You are Scout");
      expect(request.system).toContain("# Context Briefing (from parent)");
      expect(request.system).toContain(`## Recent File Changes\n1. ${changed}`);
      expect(request.system).toContain("## Active Todos\n- [t1] map the modules");
      expect(
        request.system!.split("# Context Briefing (from parent)")[1]!.trim().split("\n").length,
      ).toBeLessThanOrEqual(60);
      for (const tool of request.toolsOffered) expect(READ_TOOLS).toContain(tool);
      expect(request.toolsOffered).not.toContain("spawn_agent");
    }
    const waitResult = events.find((event) => event.type === "tool-end" && event.name === "wait");
    expect(waitResult?.type === "tool-end" && JSON.parse(waitResult.output)).toMatchObject({
      timed_out: false,
    });
    const statuses =
      waitResult?.type === "tool-end" ? Object.values(JSON.parse(waitResult.output).status) : [];
    expect(statuses).toEqual(["completed: found it", "completed: found it", "completed: found it"]);
    expect(events.filter((event) => event.type === "subagent-spawned")).toHaveLength(3);
    const completed = events.filter((event) => event.type === "subagent-completed");
    expect(completed).toHaveLength(3);
    // Status as data, with the child's full tag: hosts never parse the status line.
    for (const event of completed) {
      expect(event).toMatchObject({
        child: { agentId: event.childId, depth: 1, nickname: event.nickname, role: event.role },
        state: { lifecycle: "completed", detail: "found it" },
      });
    }
    const running = events.find(
      (event) => event.type === "subagent-status-changed" && event.status === "running",
    );
    expect(running).toMatchObject({ child: { depth: 1 }, state: { lifecycle: "running" } });
    expect(events.at(-1)).toMatchObject({
      type: "turn-end",
      reason: "completed",
      text: "All three reported.",
    });
    expect(runtime.manager!.activeCount()).toBe(0);
  });
});

describe("limits", () => {
  const slowChild = {
    match: { system: { regex: "^(?!You are Nizzy)" } },
    response: { text: "child done", delayMs: 150 },
  };

  it("wait without ids leaves out children whose end was already reported (an earlier prompt's)", async () => {
    harness = await startSubagentHarness({ rules: [slowChild] });
    const manager = harness.runtime.manager!;
    const lead = { agentId: "lead", depth: 0 };
    const earlier = await manager.spawn({ parent: lead, message: "one" });
    const first = await manager.wait({ callerId: "lead", mode: "all", timeoutMs: 10_000 });
    expect(Object.keys(first.status)).toEqual([earlier.agentId]);
    const later = await manager.spawn({ parent: lead, message: "two" });
    const second = await manager.wait({ callerId: "lead", mode: "all", timeoutMs: 10_000 });
    expect(Object.keys(second.status)).toEqual([later.agentId]);
    // Named, a reported child is still there.
    const named = await manager.wait({ callerId: "lead", ids: [earlier.agentId], timeoutMs: 10_000 });
    expect(Object.keys(named.status)).toEqual([earlier.agentId]);
  });

  it("queues a third spawn at max_threads = 2 instead of refusing it, and starts it when a child completes", async () => {
    harness = await startSubagentHarness(
      { rules: [slowChild] },
      { configure: (config) => (config.agent.agents.max_threads = 2) },
    );
    const manager = harness.runtime.manager!;
    const lead = { agentId: "lead", depth: 0 };
    const first = await manager.spawn({ parent: lead, message: "one" });
    await manager.spawn({ parent: lead, message: "two" });
    const third = await manager.spawn({ parent: lead, message: "three" });
    expect(manager.info(third.agentId)?.status).toBe("queued");
    expect(manager.activeCount()).toBe(2);
    await manager.wait({ callerId: "lead", ids: [first.agentId], timeoutMs: 10_000 });
    const done = await manager.wait({ callerId: "lead", ids: [third.agentId], timeoutMs: 10_000 });
    expect(done.status[third.agentId]).toBe("completed: child done");
  });

  it("refuses a spawn only past max_queued, with the setting named", async () => {
    harness = await startSubagentHarness(
      { rules: [slowChild] },
      {
        configure: (config) => {
          config.agent.agents.max_threads = 1;
          config.agent.agents.max_queued = 1;
        },
      },
    );
    const manager = harness.runtime.manager!;
    const lead = { agentId: "lead", depth: 0 };
    await manager.spawn({ parent: lead, message: "one" });
    await manager.spawn({ parent: lead, message: "two" });
    await expect(manager.spawn({ parent: lead, message: "three" })).rejects.toThrow(
      /Agent queue full: 1 spawns already wait .*agent\.agents\.max_queued/,
    );
  });

  it("offers a depth-2 agent no lifecycle tools and refuses its direct spawn with the depth error", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: {
            system: { regex: "^(?!You are Nizzy)" },
            toolsOffered: ["spawn_agent"],
            lastIsToolResult: false,
          },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "go deeper" } }] },
        },
        { match: { toolsNotOffered: ["spawn_agent"] }, response: { text: "deepest done" } },
        { response: { text: "ok" } },
      ],
    });
    const manager = harness.runtime.manager!;
    const child = await manager.spawn({ parent: { agentId: "lead", depth: 0 }, message: "delegate further" });
    await until(() =>
      manager.list().some((agent) => agent.depth === 2 && agent.status.startsWith("completed")),
    );
    const grandchild = manager.list().find((agent) => agent.depth === 2)!;
    expect(grandchild.parentId).toBe(child.agentId);
    const deepest = harness.mock.requests.find((request) => request.messages[0]?.text === "go deeper")!;
    expect(deepest.toolsOffered).not.toContain("spawn_agent");
    expect(
      deepest.toolsOffered.filter((tool) =>
        ["send_input", "wait", "close_agent", "resume_agent"].includes(tool),
      ),
    ).toEqual([]);
    await expect(
      manager.spawn({ parent: { agentId: grandchild.id, depth: 2 }, message: "x" }),
    ).rejects.toThrow("Agent depth limit (2) reached. Solve the task yourself.");
  });

  it("keeps the slot count exact over 100 spawn/close cycles on running and finished agents", async () => {
    harness = await startSubagentHarness(
      { rules: [{ response: { text: "quick", delayMs: 5 } }] },
      {
        configure: (config) => (config.agent.agents.max_threads = 2),
      },
    );
    const manager = harness.runtime.manager!;
    const lead = { agentId: "lead", depth: 0 };
    for (let cycle = 0; cycle < 100; cycle++) {
      const spawned = await manager.spawn({ parent: lead, message: `cycle ${cycle}` });
      if (cycle % 2 === 1)
        await manager.wait({ callerId: "lead", ids: [spawned.agentId], timeoutMs: 10_000 });
      manager.close(spawned.agentId);
      manager.close(spawned.agentId);
      expect(manager.activeCount()).toBe(0);
    }
    await manager.spawn({ parent: lead, message: "a" });
    await manager.spawn({ parent: lead, message: "b" });
    expect(manager.activeCount()).toBe(2);
  });
});

describe("talking to subagents", () => {
  it("send_input reaches a running child at its next step; resume_agent re-runs it with its history", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { lastUser: "start the job" },
          times: 1,
          response: { toolCalls: [{ name: "think", arguments: { thought: "pondering" } }], delayMs: 200 },
        },
        { match: { anyMessage: "also check the lexer" }, times: 1, response: { text: "checked both" } },
        { match: { lastUser: "now the parser" }, response: { text: "parser done" } },
      ],
    });
    const manager = harness.runtime.manager!;
    const child = await manager.spawn({ parent: { agentId: "lead", depth: 0 }, message: "start the job" });
    expect(manager.sendInput(child.agentId, "also check the lexer")).toMatchObject({ status: "sent" });
    await manager.wait({ callerId: "lead", ids: [child.agentId], timeoutMs: 10_000 });
    expect(manager.info(child.agentId)).toMatchObject({ status: "completed: checked both" });
    const second = harness.mock.requests[1]!;
    // The queued message follows the tool result in the same user turn (Anthropic merges them).
    expect(second.messages.at(-1)!.toolResults).toHaveLength(1);
    expect(second.messages.at(-1)!.text).toBe("also check the lexer");
    expect(() => manager.sendInput(child.agentId, "late")).toThrow(/final state: completed.*resume_agent/);

    await manager.resume(child.agentId, "now the parser");
    await manager.wait({ callerId: "lead", ids: [child.agentId], timeoutMs: 10_000 });
    expect(manager.info(child.agentId)).toMatchObject({ status: "completed: parser done" });
    const resumed = harness.mock.requests.at(-1)!;
    expect(resumed.messages.map((message) => message.text)).toEqual([
      "start the job",
      "",
      "also check the lexer",
      "checked both",
      "now the parser",
    ]);
  });

  it("close_agent stops a child and its own child", async () => {
    harness = await startSubagentHarness({
      rules: [
        {
          match: { lastUser: "parent task" },
          response: { toolCalls: [{ name: "spawn_agent", arguments: { message: "grandchild task" } }] },
        },
        { match: { lastUser: "grandchild task" }, response: { fault: { type: "hang" } } },
        { match: { lastIsToolResult: true }, response: { fault: { type: "hang" } } },
      ],
    });
    const manager = harness.runtime.manager!;
    const child = await manager.spawn({ parent: { agentId: "lead", depth: 0 }, message: "parent task" });
    await until(() => manager.list().some((agent) => agent.depth === 2 && agent.status === "running"));
    const grandchild = manager.list().find((agent) => agent.depth === 2)!;
    expect(manager.close(child.agentId)).toMatchObject({ status: "shutdown" });
    expect(manager.info(grandchild.id)?.status).toBe("shutdown");
    expect(manager.activeCount()).toBe(0);
  });
});

describe("models for subagents", () => {
  it("uses the parent's model, a role's model, and a session override, in that order", async () => {
    harness = await startSubagentHarness(
      { rules: [{ response: { text: "ok" } }] },
      {
        configure: (config) => {
          config.agent.agents.roles.fast = {
            description: "quick",
            model: "anthropic/claude-haiku-4-5-20251022",
            enabled: true,
          };
        },
        overrides: { explorer: "anthropic/claude-opus-4-6-20260205" },
      },
    );
    const manager = harness.runtime.manager!;
    const lead = { agentId: "lead", depth: 0 };
    for (const roleName of ["worker", "fast", "explorer"]) {
      const spawned = await manager.spawn({ parent: lead, message: `as ${roleName}`, roleName });
      await manager.wait({ callerId: "lead", ids: [spawned.agentId], timeoutMs: 10_000 });
    }
    const modelFor = (text: string) =>
      harness!.mock.requests.find((request) => request.messages[0]?.text === text)?.model;
    expect(modelFor("as worker")).toBe("claude-sonnet-4-6-20260217");
    expect(modelFor("as fast")).toBe("claude-haiku-4-5-20251022");
    expect(modelFor("as explorer")).toBe("claude-opus-4-6-20260205");
  });
});
